package command

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// TestUIHooks: progress lines come out in order, one "Still ..." report per
// ten seconds an operation runs, and all of it is written out by stopAll.
func TestUIHooks(t *testing.T) {
	var out bytes.Buffer
	m := &Meta{Streams: Streams{Stdout: &out}}
	h := newUIHooks(m)
	a, _ := addrs.ParseAbsResourceInstanceStr("terraform_data.a")
	b, _ := addrs.ParseAbsResourceInstanceStr("terraform_data.b")
	obj := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("x")})
	h.PreApply(a.Object(addrs.NotDeposed), plans.Create, cty.NullVal(obj.Type()))
	h.PreApply(b.Object("0badcafe"), plans.Delete, obj)
	start := time.Now()
	h.still(start.Add(5 * time.Second))
	h.still(start.Add(11 * time.Second))
	h.still(start.Add(12 * time.Second))
	h.PostApply(a.Object(addrs.NotDeposed), plans.Create, obj, nil)
	h.still(start.Add(21 * time.Second))
	h.PostApply(b.Object("0badcafe"), plans.Delete, cty.NullVal(obj.Type()), nil)
	h.stopAll()
	got := strings.Split(strings.TrimSpace(out.String()), "\n")
	for i, line := range got {
		// Elapsed times depend on the clock; the structure does not.
		if j := strings.Index(line, " after "); j > 0 {
			got[i] = line[:j] + " after ..."
		}
	}
	sortStill(got)
	want := []string{
		"terraform_data.a: Creating...",
		"terraform_data.b (deposed object 0badcafe): Destroying... [id=x]",
		"terraform_data.a: Still creating... [11s elapsed]",
		"terraform_data.b (deposed object 0badcafe): Still destroying... [11s elapsed]",
		"terraform_data.a: Creation complete after ...",
		"terraform_data.b (deposed object 0badcafe): Still destroying... [21s elapsed]",
		"terraform_data.b (deposed object 0badcafe): Destruction complete after ...",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}

// sortStill orders the two "Still" lines of one tick, which come from a
// map.
func sortStill(lines []string) {
	if len(lines) > 3 && lines[2] > lines[3] {
		lines[2], lines[3] = lines[3], lines[2]
	}
}

var afterRE = regexp.MustCompile(`after [0-9hms]+`)

// TestJSONHooks: with -json, progress is apply_start, apply_progress every
// ten seconds, then apply_complete or apply_errored, elapsed times in
// whole seconds, the deposed object named by its instance.
func TestJSONHooks(t *testing.T) {
	var out bytes.Buffer
	m := &Meta{Streams: Streams{Stdout: &out, Now: time.Now}}
	m.jsonUI = &jsonView{m: m}
	h := newUIHooks(m)
	a, _ := addrs.ParseAbsResourceInstanceStr("terraform_data.a")
	b, _ := addrs.ParseAbsResourceInstanceStr("terraform_data.b")
	obj := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("x")})
	h.PreApply(a.Object(addrs.NotDeposed), plans.Create, cty.NullVal(obj.Type()))
	h.PreApply(b.Object("0badcafe"), plans.Delete, obj)
	start := time.Now()
	h.still(start.Add(5 * time.Second))
	h.still(start.Add(11 * time.Second))
	h.PostApply(a.Object(addrs.NotDeposed), plans.Create, obj, nil)
	h.PostApply(b.Object("0badcafe"), plans.Delete, obj, errors.New("boom"))
	h.stopAll()
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var msg struct {
			Type    string `json:"type"`
			Message string `json:"@message"`
			Hook    struct {
				Resource struct {
					Addr string `json:"addr"`
				} `json:"resource"`
				Action  string   `json:"action"`
				Elapsed *float64 `json:"elapsed_seconds"`
			} `json:"hook"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if msg.Hook.Resource.Addr == "" || msg.Hook.Action == "" {
			t.Errorf("hook without resource or action: %s", line)
		}
		// Elapsed times of finished operations depend on the clock.
		got = append(got, msg.Type+" "+afterRE.ReplaceAllString(msg.Message, "after ..."))
	}
	sortStill(got)
	want := []string{
		"apply_start terraform_data.a: Creating...",
		"apply_start terraform_data.b: Destroying... [id=x]",
		"apply_progress terraform_data.a: Still creating... [11s elapsed]",
		"apply_progress terraform_data.b: Still destroying... [11s elapsed]",
		"apply_complete terraform_data.a: Creation complete after ... [id=x]",
		"apply_errored terraform_data.b: Destruction errored after ...",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}
