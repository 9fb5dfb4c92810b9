package testfiles

import (
	"context"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/providers"
)

// TestMockComputed: a mock fills computed attributes the configuration
// leaves null, top-level and inside nested blocks: unknown in the plan,
// then the mock_resource default (top level) or a generated value when
// applied; what the configuration sets is kept; with override_during =
// plan the values are in the plan already.
func TestMockComputed(t *testing.T) {
	schema := &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"name": {Type: cty.String, Required: true},
			"id":   {Type: cty.String, Computed: true},
			"size": {Type: cty.Number, Optional: true, Computed: true},
			"arn":  {Type: cty.String, Computed: true},
		},
		BlockTypes: map[string]*configschema.NestedBlock{
			"disk": {Nesting: configschema.NestingList, Block: configschema.Block{
				Attributes: map[string]*configschema.Attribute{
					"label":     {Type: cty.String, Optional: true},
					"volume_id": {Type: cty.String, Computed: true},
					"encrypted": {Type: cty.Bool, Computed: true},
				},
			}},
		},
	}
	resp := &providers.GetProviderSchemaResponse{ResourceTypes: map[string]providers.Schema{"x_thing": {Block: schema}}}
	config := cty.ObjectVal(map[string]cty.Value{
		"name": cty.StringVal("n"),
		"id":   cty.NullVal(cty.String),
		"size": cty.NumberIntVal(3),
		"arn":  cty.NullVal(cty.String),
		"disk": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{
			"label": cty.StringVal("root"), "volume_id": cty.NullVal(cty.String), "encrypted": cty.NullVal(cty.Bool),
		})}),
	})
	defaults := cty.ObjectVal(map[string]cty.Value{"arn": cty.StringVal("arn:x")})
	tests := map[string]struct {
		reason     string
		duringPlan bool
	}{
		"apply":         {reason: "values unknown in the plan, filled when applied"},
		"plan override": {reason: "override_during = plan: filled in the plan", duringPlan: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			m := newMockProvider(&MockProvider{Resources: map[string]cty.Value{"x_thing": defaults}, DuringPlan: tc.duringPlan}, resp, 1)
			ctx := context.Background()
			plan := m.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "x_thing",
				PriorState: cty.NullVal(schema.ImpliedType()), ProposedNewState: config, Config: config})
			if plan.Diagnostics.HasErrors() {
				t.Fatal(plan.Diagnostics)
			}
			planned := plan.PlannedState
			disk := planned.GetAttr("disk").Index(cty.NumberIntVal(0))
			if tc.duringPlan != planned.GetAttr("id").IsKnown() || tc.duringPlan != disk.GetAttr("volume_id").IsKnown() {
				t.Errorf("%s: planned %#v", tc.reason, planned)
			}
			got := m.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{TypeName: "x_thing",
				PriorState: cty.NullVal(schema.ImpliedType()), PlannedState: planned, Config: config}).NewState
			if !got.IsWhollyKnown() {
				t.Fatalf("%s: unknowns left after apply: %#v", tc.reason, got)
			}
			disk = got.GetAttr("disk").Index(cty.NumberIntVal(0))
			checks := map[string]bool{
				"the configured name is kept":          got.GetAttr("name").RawEquals(cty.StringVal("n")),
				"the configured optional+computed":     got.GetAttr("size").RawEquals(cty.NumberIntVal(3)),
				"the default of arn":                   got.GetAttr("arn").RawEquals(cty.StringVal("arn:x")),
				"a generated id of 8 characters":       len(got.GetAttr("id").AsString()) == 8,
				"the nested block's configured label":  disk.GetAttr("label").RawEquals(cty.StringVal("root")),
				"a generated nested volume_id":         len(disk.GetAttr("volume_id").AsString()) == 8,
				"false for a nested computed bool":     disk.GetAttr("encrypted").RawEquals(cty.False),
				"the nested block list keeps its item": got.GetAttr("disk").LengthInt() == 1,
			}
			for what, ok := range checks {
				if !ok {
					t.Errorf("%s: want %s: %#v", tc.reason, what, got)
				}
			}
		})
	}
}
