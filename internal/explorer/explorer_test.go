package explorer

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// writePlanPage renders the page of a scenario's plan.
func writePlanPage(t testing.TB, pl planned) string {
	t.Helper()
	var b bytes.Buffer
	if err := WritePlan(context.Background(), &b, pl.plan, pl.schemas, Options{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestPlanPages renders the plan of every scenario and checks the model
// the page embeds: the summary against the plan's own changes, every
// listed change against the plan, no secret and no address but the SVG
// namespace anywhere in the source, and the whole model against a golden
// file (-update rewrites it).
func TestPlanPages(t *testing.T) {
	for name, sc := range scenarios() {
		t.Run(name, func(t *testing.T) {
			pl := sc.run(t)
			html := writePlanPage(t, pl)
			m := pageModel(t, html)
			checkSummary(t, pl.plan, m)
			checkEntries(t, pl.plan, m)
			checkSelfContained(t, html, sc.secrets)
			golden(t, filepath.Join("testdata", "models", name+".json"), goldenModel(t, pl.plan, m))
		})
	}
}

// checkSummary counts the plan's changes by action, independently of
// the page, and compares.
func checkSummary(t *testing.T, p *plans.Plan, m *Model) {
	t.Helper()
	var want Summary
	for _, c := range p.Changes {
		switch {
		case c.Action == plans.Create:
			want.Add++
		case c.Action == plans.Update:
			want.Change++
		case c.Action.IsReplace():
			want.Replace++
		case c.Action == plans.Delete && !isData(c):
			want.Destroy++
		case c.Action == plans.Read:
			want.Read++
		case c.Action == plans.Forget:
			want.Forget++
		}
		if c.Importing != nil {
			want.Import++
		}
		if c.Moved() {
			want.Move++
		}
	}
	if diff := cmp.Diff(&want, m.Summary); diff != "" {
		t.Errorf("summary (-plan +page):\n%s", diff)
	}
}

func isData(c *plans.ResourceInstanceChange) bool {
	return c.Addr.Resource.Resource.Mode == addrs.DataResourceMode
}

// checkEntries checks that the page lists exactly the changes the text
// shows, each with the header line Terraform prints for it.
func checkEntries(t *testing.T, p *plans.Plan, m *Model) {
	t.Helper()
	var want []string
	for _, c := range p.Changes {
		if (c.Action == plans.NoOp && c.Importing == nil && !c.Moved()) || (c.Action == plans.Delete && isData(c)) {
			continue
		}
		want = append(want, c.Addr.String())
	}
	var got []string
	for _, e := range m.Changes {
		got = append(got, e.Addr)
		if len(e.Kinds) != strings.Count(e.Text, "\n")+1 {
			t.Errorf("%s: %d kinds for %d lines", e.Addr, len(e.Kinds), strings.Count(e.Text, "\n")+1)
		}
		if first, _, _ := strings.Cut(e.Text, "\n"); !strings.HasPrefix(strings.TrimSpace(first), "# ") || !strings.Contains(first, e.Addr) {
			t.Errorf("%s: the block has no header naming it:\n%s", e.Addr, e.Text)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("changes listed (-plan +page):\n%s", diff)
	}
}

// urlPattern finds what a page could fetch: any URL, and attributes that
// load something.
var urlPattern = regexp.MustCompile(`(?i)(https?|ftp|wss?)://[^\s"'<>)]*|\b(src|href)\s*=\s*["']?[^"'#\s>]|@import|url\(\s*['"]?[^#\s'"]`)

// checkSelfContained fails on a secret anywhere in the page's source and
// on anything it could fetch; the SVG namespace is a name, not a request.
func checkSelfContained(t *testing.T, html string, secrets []string) {
	t.Helper()
	for _, s := range secrets {
		if strings.Contains(html, s) {
			t.Errorf("the page's source holds the secret %q", s)
		}
	}
	for _, u := range urlPattern.FindAllString(html, -1) {
		if u != "http://www.w3.org/2000/svg" {
			t.Errorf("the page refers to %q", u)
		}
	}
}

// goldenModel is the model as the golden file holds it: graph node ids
// (indexes into the plan's graph, which planning numbers in the order it
// finishes work) replaced by the nodes' names.
func goldenModel(t *testing.T, p *plans.Plan, m *Model) string {
	t.Helper()
	if m.Graph != nil {
		named := map[string]int{}
		for id, e := range m.Graph.Entries {
			i, err := strconv.Atoi(strings.TrimPrefix(id, "n"))
			if err != nil {
				t.Fatalf("node id %q", id)
			}
			named[p.NodeName(i)] = e
		}
		m.Graph.Entries = named
	}
	return modelText(t, m)
}

// modelText is a model as golden files hold it.
func modelText(t *testing.T, m *Model) string {
	t.Helper()
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

// golden compares got with the file at path, first writing it with
// -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

// TestStatePages renders the state each scenario leaves once applied:
// every object of the state is listed, with its dependencies, no secret
// is in the source, and the model matches its golden file.
func TestStatePages(t *testing.T) {
	for _, name := range []string{"create", "sensitive", "replace", "destroy"} {
		sc := scenarios()[name]
		t.Run(name, func(t *testing.T) {
			s, schemas := sc.applied(t)
			var b bytes.Buffer
			if err := WriteState(context.Background(), &b, s, schemas, Options{}); err != nil {
				t.Fatal(err)
			}
			m := pageModel(t, b.String())
			var want []string
			s.AllInstances(func(addr addrs.AbsResourceInstance, _ *states.Resource, is *states.ResourceInstance) {
				for range objectsOf(is) {
					want = append(want, addr.String())
				}
			})
			var got []string
			for _, e := range m.Changes {
				got = append(got, e.Addr)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("objects listed (-state +page):\n%s", diff)
			}
			checkSelfContained(t, b.String(), sc.secrets)
			golden(t, filepath.Join("testdata", "models", "state_"+name+".json"), modelText(t, m))
		})
	}
}
