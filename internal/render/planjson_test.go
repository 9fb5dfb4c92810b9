package render

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/zclconf/go-cty/cty"
)

// roundTrip marshals a document and reads it back as a tool would, with
// terraform-json's own decoder (which also runs Validate).
func roundTrip[T any](t *testing.T, doc any, into *T) {
	t.Helper()
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, into); err != nil {
		t.Fatalf("terraform-json cannot read the document: %s\n%s", err, b)
	}
}

// jsonDocOpts compare terraform-json documents.
var jsonDocOpts = cmp.Options{
	cmpopts.IgnoreUnexported(tfjson.Plan{}, tfjson.State{}),
	cmpopts.EquateEmpty(),
	cmp.Comparer(func(a, b cty.Type) bool {
		if a == cty.NilType || b == cty.NilType {
			return a == b
		}
		return a.Equals(b)
	}),
}

// comparableConfig reduces Terraform's configuration document to what
// PlanJSON describes (see its doc comment): resources the plan has changes
// for and the providers they use, without expressions.
func comparableConfig(p *tfjson.Plan) {
	c := p.Config
	if c == nil || c.RootModule == nil {
		return
	}
	changed := map[string]bool{}
	used := map[string]bool{}
	for _, rc := range p.ResourceChanges {
		changed[rc.Type+"."+rc.Name] = true
		used[rc.ProviderName] = true
	}
	for k, pc := range c.ProviderConfigs {
		if !used[pc.FullName] {
			delete(c.ProviderConfigs, k)
		}
	}
	comparableModule(c.RootModule, changed)
}

// comparableModule is comparableConfig for one module and the modules it
// calls: the calls' source, arguments and expressions are not recorded
// in plans either.
func comparableModule(m *tfjson.ConfigModule, changed map[string]bool) {
	m.Outputs = nil
	m.Variables = nil
	var kept []*tfjson.ConfigResource
	for _, r := range m.Resources {
		r.Expressions, r.CountExpression, r.ForEachExpression, r.DependsOn = nil, nil, nil, nil
		if changed[r.Type+"."+r.Name] {
			kept = append(kept, r)
		}
	}
	m.Resources = kept
	for _, mc := range m.ModuleCalls {
		mc.Source, mc.Expressions, mc.CountExpression, mc.ForEachExpression, mc.DependsOn, mc.VersionConstraint = "", nil, nil, nil, nil, ""
		comparableModule(mc.Module, changed)
	}
}

// TestPlanJSONMatchesTerraform rebuilds plans real Terraform made and
// compares PlanJSON with Terraform's `show -json`, as terraform-json reads
// both. Left out of the comparison: relevant_attributes and the
// configuration's expressions, which plans do not record.
func TestPlanJSONMatchesTerraform(t *testing.T) {
	tests := map[string]struct {
		plan string
		mode plans.Mode
	}{
		"create":          {plan: "s1/plan_create.json"},
		"no changes":      {plan: "s1/plan_noop.json"},
		"update":          {plan: "s1/plan_update.json"},
		"replace":         {plan: "s1/plan_replace.json"},
		"destroy":         {plan: "s1/plan_destroy.json", mode: plans.DestroyMode},
		"tricky create":   {plan: "s4/plan_a.json"},
		"tricky update":   {plan: "s4/plan_b.json"},
		"outputs only":    {plan: "s4/plan_c.json"},
		"destroy nothing": {plan: "empty/plan_destroy_noop.json", mode: plans.DestroyMode},
		"moved":           {plan: "s5/plan_moved.json"},
		"modules":         {plan: "s6/plan_modules.json"},
	}
	schemas := terraformSchemas(t)
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := planFromTerraform(t, tc.plan, tc.mode, schemas)
			doc, err := PlanJSON(p, schemas)
			if err != nil {
				t.Fatal(err)
			}
			if err := doc.Validate(); err != nil {
				t.Fatal(err)
			}
			var got, want tfjson.Plan
			roundTrip(t, doc, &got)
			if err := json.Unmarshal([]byte(readGolden(t, "terraform/"+tc.plan)), &want); err != nil {
				t.Fatal(err)
			}
			want.RelevantAttributes = nil
			comparableConfig(&want)
			if diff := cmp.Diff(want, got, jsonDocOpts); diff != "" {
				t.Errorf("PlanJSON() differs from Terraform's (-want +got):\n%s", diff)
			}
		})
	}
}

// TestStateJSONMatchesTerraform compares StateJSON with `terraform show
// -json` for the state after stage 1.
func TestStateJSONMatchesTerraform(t *testing.T) {
	doc, err := StateJSON(stage1State(t), terraformSchemas(t))
	if err != nil {
		t.Fatal(err)
	}
	var got, want tfjson.State
	roundTrip(t, doc, &got)
	if err := json.Unmarshal([]byte(readGolden(t, "terraform/s1/state_stage1.json")), &want); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got, jsonDocOpts); diff != "" {
		t.Errorf("StateJSON() differs from Terraform's (-want +got):\n%s", diff)
	}
}

// TestPlanJSONGolden writes the JSON documents of the hand-made plans (see
// TestPlanGolden): typed attributes, nested blocks, replace paths inside
// blocks, drift, deposed objects, data resources. Run with -update to
// rewrite them.
func TestPlanJSONGolden(t *testing.T) {
	schemas := exampleSchemas()
	for name, tc := range goldenPlans() {
		t.Run(name, func(t *testing.T) {
			p := tc.plan(t)
			p.Timestamp = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
			doc, err := PlanJSON(p, schemas)
			if err != nil {
				t.Fatal(err)
			}
			var back tfjson.Plan
			roundTrip(t, doc, &back)
			b, err := json.MarshalIndent(doc, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "json/plan_"+name+".json", string(b)+"\n")
		})
	}
}
