package enginetest

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// TestUnstorableResultKept: a provider returns, after creating or updating
// an object, a value state cannot hold (+Inf, or an unknown it should have
// filled in). The object must still be recorded, with null there, tainted
// if it was just created, and the apply must say so; other instances are
// unaffected.
func TestUnstorableResultKept(t *testing.T) {
	inf := cty.NumberVal(new(big.Float).SetInf(false))
	tests := map[string]struct {
		reason     string
		prior      bool // the object exists before this apply
		result     cty.Value
		wantStatus states.ObjectStatus
		wantDiags  []string
		wantNext   []string
	}{
		"infinite number on create": {
			reason: "cannot serialize infinity used to lose the object", result: inf,
			wantStatus: states.ObjectTainted, wantDiags: []string{"Provider returned values that cannot be stored"},
			wantNext: []string{"test_thing.bad delete-then-create replace_because_tainted"},
		},
		"unknown left on create": {
			reason: "a contract violation, but the object exists", result: cty.UnknownVal(cty.Number),
			wantStatus: states.ObjectTainted,
			wantDiags:  []string{"Provider produced inconsistent result after apply", "Provider returned values that cannot be stored"},
			wantNext:   []string{"test_thing.bad delete-then-create replace_because_tainted"},
		},
		"infinite number on update": {
			reason: "an existing object is not tainted for it", prior: true, result: inf,
			wantStatus: states.ObjectReady, wantDiags: []string{"Provider returned values that cannot be stored"},
			wantNext: []string{"test_thing.bad update"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h, _ := New(map[string]string{"main.tf": `
resource "test_thing" "bad" { name = "bad" }
resource "test_thing" "good" { name = "good" }
`})
			tp := &TestProvider{}
			h.WithTestProvider(tp)
			if tc.prior {
				applyOK(t, h)
			}
			// The size is unknown in the plan, so any result is consistent
			// with it; the apply then returns the unstorable value.
			tp.PlanHook = func(r providers.PlanResourceChangeRequest, planned cty.Value) cty.Value {
				if planned.GetAttr("name").AsString() != "bad" {
					return planned
				}
				return setAttr(planned, "size", cty.UnknownVal(cty.Number))
			}
			tp.ApplyHook = func(r providers.ApplyResourceChangeRequest, v cty.Value) cty.Value {
				if v.GetAttr("name").AsString() != "bad" {
					return v
				}
				return setAttr(v, "size", tc.result)
			}
			p, ds := h.Plan(plans.NormalMode)
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			ds = h.Apply(p)
			for _, d := range tc.wantDiags {
				wantDiag(t, ds, d, "")
			}
			bad := h.State.ResourceInstance(mustAddr("test_thing.bad"))
			if bad == nil || bad.Current == nil {
				t.Fatalf("the object was lost (%s)", tc.reason)
			}
			if bad.Current.Status != tc.wantStatus {
				t.Errorf("status %v, want %v", bad.Current.Status, tc.wantStatus)
			}
			var attrs map[string]any
			if err := json.Unmarshal(bad.Current.AttrsJSON, &attrs); err != nil {
				t.Fatal(err)
			}
			if attrs["size"] != nil || attrs["id"] == nil || attrs["name"] != "bad" {
				t.Errorf("recorded attributes %s, want the id and name kept and size null", bad.Current.AttrsJSON)
			}
			if h.State.ResourceInstance(mustAddr("test_thing.good")) == nil {
				t.Errorf("the other instance was lost")
			}
			tp.PlanHook, tp.ApplyHook = nil, nil
			next, _ := h.Plan(plans.NormalMode)
			if diff := cmp.Diff(tc.wantNext, actions(next)); diff != "" {
				t.Errorf("next plan -want +got\n%s", diff)
			}
		})
	}
}

func applyOK(t *testing.T, h *Harness) {
	t.Helper()
	p, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if ds := h.Apply(p); ds.HasErrors() {
		t.Fatal(ds)
	}
}
