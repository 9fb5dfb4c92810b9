package enginetest

import (
	"bytes"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/applying"
	"github.com/cairn-iac/cairn/internal/planning"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/google/go-cmp/cmp"
)

// importEvents records the apply's import reports.
type importEvents struct {
	applying.NoHooks
	mu     sync.Mutex
	events []string
}

func (h *importEvents) PreImport(addr addrs.AbsResourceInstance, id string) {
	h.add("importing " + addr.String() + " " + id)
}

func (h *importEvents) PostImport(addr addrs.AbsResourceInstance, id string) {
	h.add("imported " + addr.String() + " " + id)
}

func (h *importEvents) add(s string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events = append(h.events, s)
}

var _ applying.ImportHooks = (*importEvents)(nil)

// TestImportBlock: an import block's object becomes the prior object of
// its instance, the change records the import, and applying makes the
// object managed whatever the action; the next plan has nothing to do.
func TestImportBlock(t *testing.T) {
	cases := map[string]struct {
		name       string // the configured name; the imported object's is "obj"
		skipRefesh bool
		want       plans.Action
	}{
		"NoOp":                {name: "obj", want: plans.NoOp},
		"Update":              {name: "other", want: plans.Update},
		"NoOpWithoutRefresh":  {name: "obj", skipRefesh: true, want: plans.NoOp},
		"UpdateWithoutRefesh": {name: "other", skipRefesh: true, want: plans.Update},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h, ds := New(map[string]string{"main.tf": `
resource "test_thing" "a" { name = "` + tc.name + `" }
import {
  to = test_thing.a
  id = "obj"
}`})
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			tp := &TestProvider{}
			h.WithTestProvider(tp)
			hooks := &importEvents{}
			h.Hooks = hooks
			p, ds := h.Plan(plans.NormalMode, func(o *planning.Options) { o.SkipRefresh = tc.skipRefesh })
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			c := changeFor(t, p, "test_thing.a")
			if c.Action != tc.want || c.Importing == nil || c.Importing.ID != "obj" {
				t.Fatalf("change: %s importing %+v; want %s importing obj", c.Action, c.Importing, tc.want)
			}
			if got := c.Before.GetAttr("id").AsString(); got != "imported-obj" {
				t.Errorf("prior object id %q, want the imported object's", got)
			}
			if !p.HasChanges() || p.ImportCount() != 1 {
				t.Errorf("HasChanges %v, ImportCount %d; an import is a change", p.HasChanges(), p.ImportCount())
			}
			if ds := h.Apply(p); ds.HasErrors() {
				t.Fatal(ds)
			}
			want := []string{"importing test_thing.a id=obj", "imported test_thing.a id=obj"}
			if diff := cmp.Diff(want, hooks.events); diff != "" {
				t.Errorf("import reports (-want +got):\n%s", diff)
			}
			if is := h.State.ResourceInstance(mustAddr("test_thing.a")); is == nil || is.Current == nil {
				t.Fatal("the imported object is not in state after apply")
			}
			again, ds := h.Plan(plans.NormalMode)
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			if c := changeFor(t, again, "test_thing.a"); c.Action != plans.NoOp || c.Importing != nil || again.HasChanges() {
				t.Errorf("second plan: %s importing %+v; want a plain no-op", c.Action, c.Importing)
			}
		})
	}
}

// TestImportBlockErrors: what the provider refuses stops the plan, and so
// does a target key the resource does not expand to; reading the imported
// object is never skipped, even with refresh off.
func TestImportBlockErrors(t *testing.T) {
	cases := map[string]struct {
		key        string
		id         string
		tp         *TestProvider
		skipRefesh bool
		want       string
	}{
		"NotFound":           {key: "0", id: "missing-1", tp: &TestProvider{}, want: "Cannot import non-existent remote object"},
		"GoneWhenRead":       {key: "0", id: "obj", tp: &TestProvider{Gone: []string{"obj"}}, want: "Cannot import non-existent remote object"},
		"ReadWithoutRefresh": {key: "0", id: "obj", tp: &TestProvider{Gone: []string{"obj"}}, skipRefesh: true, want: "Cannot import non-existent remote object"},
		"KeyNotExpanded":     {key: "1", id: "obj", tp: &TestProvider{}, want: "Cannot import to non-existent resource address"},
		"StringKeyOnCount":   {key: `"k"`, id: "obj", tp: &TestProvider{}, want: "Cannot import to non-existent resource address"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h, ds := New(map[string]string{"main.tf": `
resource "test_thing" "a" {
  count = 1
  name  = "obj"
}
import {
  to = test_thing.a[` + tc.key + `]
  id = "` + tc.id + `"
}`})
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			h.WithTestProvider(tc.tp)
			p, ds := h.Plan(plans.NormalMode, func(o *planning.Options) { o.SkipRefresh = tc.skipRefesh })
			if !ds.HasErrors() || ds[0].Summary != tc.want || !p.Errored {
				t.Fatalf("want error %q, got %v", tc.want, ds)
			}
		})
	}
}

// TestImportBlockAlreadyManaged: a block whose target is in state is
// ignored; the provider is not asked to import anything.
func TestImportBlockAlreadyManaged(t *testing.T) {
	h, ds := New(map[string]string{"main.tf": `resource "test_thing" "a" { name = "x" }`})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	h.WithTestProvider(&TestProvider{})
	p, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if ds := h.Apply(p); ds.HasErrors() {
		t.Fatal(ds)
	}
	withBlock, ds := New(map[string]string{"main.tf": `resource "test_thing" "a" { name = "x" }
import {
  to = test_thing.a
  id = "missing-so-an-import-would-fail"
}`})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	withBlock.WithTestProvider(&TestProvider{})
	withBlock.State = h.State
	p, ds = withBlock.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if c := changeFor(t, p, "test_thing.a"); c.Action != plans.NoOp || c.Importing != nil || p.HasChanges() {
		t.Errorf("got %s importing %+v; want the block ignored", c.Action, c.Importing)
	}
}

// TestImportBlockPlanFile: a saved plan keeps the import, and applying the
// read plan imports.
func TestImportBlockPlanFile(t *testing.T) {
	h, ds := New(map[string]string{"main.tf": `resource "test_thing" "a" { name = "obj" }
import {
  to = test_thing.a
  id = "obj"
}`})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	h.WithTestProvider(&TestProvider{})
	p, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	var buf bytes.Buffer
	if err := plans.WriteFile(&buf, p); err != nil {
		t.Fatal(err)
	}
	got, err := plans.ReadFile(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if c := changeFor(t, got, "test_thing.a"); c.Importing == nil || c.Importing.ID != "obj" {
		t.Fatalf("read plan lost the import: %+v", c.Importing)
	}
	if ds := h.Apply(got); ds.HasErrors() {
		t.Fatal(ds)
	}
	if is := h.State.ResourceInstance(mustAddr("test_thing.a")); is == nil || is.Current == nil {
		t.Fatal("applying the read plan did not import")
	}
}

func changeFor(t *testing.T, p *plans.Plan, addr string) *plans.ResourceInstanceChange {
	t.Helper()
	for _, c := range p.Changes {
		if c.Addr.String() == addr && c.DeposedKey == addrs.NotDeposed {
			return c
		}
	}
	t.Fatalf("no change for %s", addr)
	return nil
}
