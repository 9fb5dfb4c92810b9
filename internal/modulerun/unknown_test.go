package modulerun

import (
	"context"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/plans"
)

// TestPlanUnknownInput plans with an input a preview does not know yet
// (another resource's output): the instances that use it are planned
// with unknown values, and so is the output that depends on it.
func TestPlanUnknownInput(t *testing.T) {
	m := load(t, "three")
	p, ds := m.Plan(context.Background(), plans.NormalMode, map[string]cty.Value{"prefix": cty.UnknownVal(cty.String)}, nil)
	if ds.HasErrors() {
		t.Fatalf("Plan: %s", ds.Err())
	}
	if got := len(p.Instances); got != 4 {
		t.Errorf("%d instances, want 4", got)
	}
	if in := p.Instances[0].After.GetAttr("input"); in.IsKnown() {
		t.Errorf("base's input = %#v, want unknown", in)
	}
	if o := p.Outputs["base"]; o.Value.IsKnown() {
		t.Errorf("output base = %#v, want unknown", o.Value)
	}
}
