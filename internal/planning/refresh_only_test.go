package planning_test

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/enginetest"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// TestRefreshOnlyPlan checks that a refresh-only plan records what refresh
// found and nothing else: no resource change whatever the configuration
// says, outputs evaluated against the refreshed objects, and an apply
// that leaves remote objects alone.
func TestRefreshOnlyPlan(t *testing.T) {
	const applied = `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = "b" }
output "a_name" { value = test_thing.a.name }`
	cases := map[string]struct {
		reason string
		config string
		gone   []string
		// inState lists the instances the plan's prior state (and the
		// state after applying it) must hold.
		inState []string
		// canApply: the plan records something (drift or outputs).
		canApply bool
		// output is a_name's planned value; unknown when cty.NilVal.
		output cty.Value
	}{
		"unchanged": {
			reason: "nothing drifted and nothing to record", config: applied,
			inState: []string{"test_thing.a", "test_thing.b"}, output: cty.StringVal("a"),
		},
		"configuration changed": {
			reason: "a normal plan would update a; refresh-only plans nothing and the output follows the object, not the configuration",
			config: `
resource "test_thing" "a" { name = "a2" }
resource "test_thing" "b" { name = "b" }
output "a_name" { value = test_thing.a.name }`,
			inState: []string{"test_thing.a", "test_thing.b"}, output: cty.StringVal("a"),
		},
		"deleted outside": {
			reason: "a gone object is forgotten and not planned for creation",
			config: applied, gone: []string{"b"},
			inState: []string{"test_thing.a"}, canApply: true, output: cty.StringVal("a"),
		},
		"no longer configured": {
			reason: "an orphan is refreshed, not destroyed",
			config: `
resource "test_thing" "a" { name = "a" }
output "a_name" { value = test_thing.a.name }`,
			inState: []string{"test_thing.a", "test_thing.b"}, output: cty.StringVal("a"),
		},
		"not yet created": {
			reason: "an instance without an object is not created; what refers to it is unknown, so the output changes",
			config: `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = "b" }
resource "test_thing" "c" { name = "c" }
output "a_name" { value = test_thing.c.name }`,
			inState: []string{"test_thing.a", "test_thing.b"}, canApply: true, output: cty.NilVal,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tp := &enginetest.TestProvider{}
			h := applyThenConfigure(t, tp, applied, tc.config)
			tp.Gone = tc.gone
			p, ds := h.Plan(plans.RefreshOnlyMode)
			if ds.HasErrors() {
				t.Fatalf("plan: %s", ds)
			}
			if len(p.Changes) != 0 {
				t.Errorf("%s: planned %d resource changes, want none", tc.reason, len(p.Changes))
			}
			if got := p.CanApply(); got != tc.canApply {
				t.Errorf("%s: CanApply() = %v, want %v", tc.reason, got, tc.canApply)
			}
			checkOutput(t, p, tc.output)
			checkInstances(t, "plan's prior state", p.PriorState, tc.inState)
			tp.Log = nil
			if ds := h.Apply(p); ds.HasErrors() {
				t.Fatalf("apply: %s", ds)
			}
			if len(tp.Log) != 0 {
				t.Errorf("%s: apply changed remote objects: %v", tc.reason, tp.Log)
			}
			checkInstances(t, "state after apply", h.State, tc.inState)
		})
	}
}

// applyThenConfigure applies first with tp and returns a harness on the
// same state and provider with configuration then.
func applyThenConfigure(t *testing.T, tp *enginetest.TestProvider, first, then string) *enginetest.Harness {
	t.Helper()
	h, ds := enginetest.New(map[string]string{"main.tf": first})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	h.WithTestProvider(tp)
	p, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatalf("first plan: %s", ds)
	}
	if ds := h.Apply(p); ds.HasErrors() {
		t.Fatalf("first apply: %s", ds)
	}
	next, ds := enginetest.New(map[string]string{"main.tf": then})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	next.WithTestProvider(tp)
	next.State = h.State
	return next
}

func checkOutput(t *testing.T, p *plans.Plan, want cty.Value) {
	t.Helper()
	for _, o := range p.Outputs {
		if o.Name != "a_name" {
			continue
		}
		switch {
		case want == cty.NilVal && o.After.IsKnown():
			t.Errorf("output a_name = %#v, want unknown", o.After)
		case want != cty.NilVal && !o.After.RawEquals(want):
			t.Errorf("output a_name = %#v, want %#v", o.After, want)
		}
		return
	}
	t.Errorf("no planned value for output a_name")
}

func checkInstances(t *testing.T, what string, s *states.State, want []string) {
	t.Helper()
	got := map[string]bool{}
	for _, rs := range s.Resources {
		if rs.Addr.Resource.Mode != addrs.ManagedResourceMode {
			continue
		}
		for k, is := range rs.Instances {
			if is.Current != nil {
				got[rs.Addr.Instance(k).String()] = true
			}
		}
	}
	if len(got) != len(want) {
		t.Errorf("%s holds %v, want %v", what, got, want)
		return
	}
	for _, w := range want {
		if !got[w] {
			t.Errorf("%s holds %v, want %v", what, got, want)
			return
		}
	}
}
