package enginetest

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/google/go-cmp/cmp"
)

// movedSummary lists every change whose object moved or is forgotten, as
// "prev -> addr action".
func movedSummary(p *plans.Plan) []string {
	var out []string
	for _, c := range p.Changes {
		if c.Moved() || c.Action == plans.Forget {
			out = append(out, c.PrevRunAddr.String()+" -> "+c.Addr.String()+" "+c.Action.String())
		}
	}
	return out
}

// TestMovedAndRemoved: moved blocks rebind state before planning, every
// change carries the previous address, the plan's prior and previous-run
// states use the new addresses, applying records them, and the next plan
// is empty; a removed block with destroy = false forgets the object.
func TestMovedAndRemoved(t *testing.T) {
	v1 := `resource "test_thing" "a" { name = "a" }
resource "test_thing" "c" {
  count = 2
  name = "c"
}`
	tests := map[string]struct {
		reason      string
		next        string
		wantMoved   []string
		wantActions []string
		wantState   []string
	}{
		"RenameNoOp": {
			next: `resource "test_thing" "b" { name = "a" }
moved {
  from = test_thing.a
  to   = test_thing.b
}
resource "test_thing" "c" {
  count = 2
  name = "c"
}`,
			wantMoved: []string{"test_thing.a -> test_thing.b no-op"},
			wantState: []string{"test_thing.b", "test_thing.c[0]", "test_thing.c[1]"},
		},
		"RenameAndUpdate": {
			next: `resource "test_thing" "b" { name = "changed" }
moved {
  from = test_thing.a
  to   = test_thing.b
}
resource "test_thing" "c" {
  count = 2
  name = "c"
}`,
			wantMoved:   []string{"test_thing.a -> test_thing.b update"},
			wantActions: []string{"test_thing.b update"},
			wantState:   []string{"test_thing.b", "test_thing.c[0]", "test_thing.c[1]"},
		},
		"CountToForEach": {
			next: `resource "test_thing" "a" { name = "a" }
resource "test_thing" "c" {
  for_each = toset(["x", "y"])
  name = "c"
}
moved {
  from = test_thing.c[0]
  to   = test_thing.c["x"]
}
moved {
  from = test_thing.c[1]
  to   = test_thing.c["y"]
}`,
			wantMoved: []string{`test_thing.c[0] -> test_thing.c["x"] no-op`, `test_thing.c[1] -> test_thing.c["y"] no-op`},
			wantState: []string{"test_thing.a", `test_thing.c["x"]`, `test_thing.c["y"]`},
		},
		"ImpliedCountRemoved": {
			reason: "Terraform reports the implied move of [0] as a move too",
			next: `resource "test_thing" "a" { name = "a" }
resource "test_thing" "c" { name = "c" }`,
			wantMoved:   []string{"test_thing.c[0] -> test_thing.c no-op"},
			wantActions: []string{"test_thing.c[1] delete delete_because_wrong_repetition"},
			wantState:   []string{"test_thing.a", "test_thing.c"},
		},
		"MovedToUndeclared": {
			reason: "an object moved to an address nothing declares is destroyed, and Terraform says why",
			next: `moved {
  from = test_thing.a
  to   = test_thing.zz
}
resource "test_thing" "c" {
  count = 2
  name = "c"
}`,
			wantMoved:   []string{"test_thing.a -> test_thing.zz delete"},
			wantActions: []string{"test_thing.zz delete delete_because_no_move_target"},
			wantState:   []string{"test_thing.c[0]", "test_thing.c[1]"},
		},
		"RemovedForgets": {
			next: `resource "test_thing" "a" { name = "a" }
removed {
  from = test_thing.c
  lifecycle {
    destroy = false
  }
}`,
			wantMoved:   []string{"test_thing.c[0] -> test_thing.c[0] forget", "test_thing.c[1] -> test_thing.c[1] forget"},
			wantActions: []string{"test_thing.c[0] forget delete_because_no_resource_config", "test_thing.c[1] forget delete_because_no_resource_config"},
			wantState:   []string{"test_thing.a"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h, p := run(t, scenario{steps: []string{v1, tc.next}})
			if diff := cmp.Diff(tc.wantMoved, movedSummary(p)); diff != "" {
				t.Errorf("%s\nmoves -want +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.wantActions, actions(p)); diff != "" {
				t.Errorf("%s\nactions -want +got:\n%s", tc.reason, diff)
			}
			if !p.HasChanges() {
				t.Error("a plan that moves or forgets objects has changes to apply")
			}
			for _, c := range p.Changes {
				if p.PrevRunState.ResourceInstance(c.Addr) == nil && c.Action != plans.Create {
					t.Errorf("previous-run state lacks %s: it should carry the moved addresses", c.Addr)
				}
			}
			if ds := h.Apply(p); ds.HasErrors() {
				t.Fatal(ds)
			}
			var got []string
			for _, rs := range h.State.SortedResources() {
				for _, k := range rs.SortedInstanceKeys() {
					got = append(got, rs.Addr.Instance(k).String())
				}
			}
			if diff := cmp.Diff(tc.wantState, got); diff != "" {
				t.Errorf("state after apply -want +got:\n%s", diff)
			}
			again, ds := h.Plan(plans.NormalMode)
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			if again.HasChanges() {
				t.Errorf("the next plan has changes: %v %v", actions(again), movedSummary(again))
			}
		})
	}
}
