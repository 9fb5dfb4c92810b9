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

// TestPlanJSONMatchesTerraform rebuilds plans real Terraform made and
// compares PlanJSON, given the configuration each plan was made from,
// with Terraform's `show -json`, as terraform-json reads both, and the
// configuration as JSON, byte for byte once indented (terraform-json
// cannot tell an explicit null from an absent value, nor read a single
// nested block). Left out of the comparison: relevant_attributes, which
// rebuilt plans do not have.
func TestPlanJSONMatchesTerraform(t *testing.T) {
	tests := map[string]struct {
		plan   string
		config string // a .tf file, or a directory
		mode   plans.Mode
	}{
		"create":          {plan: "s1/plan_create.json", config: "s1/stage1.tf"},
		"no changes":      {plan: "s1/plan_noop.json", config: "s1/stage1.tf"},
		"update":          {plan: "s1/plan_update.json", config: "s1/stage2.tf"},
		"replace":         {plan: "s1/plan_replace.json", config: "s1/stage3.tf"},
		"destroy":         {plan: "s1/plan_destroy.json", config: "s1/stage3.tf", mode: plans.DestroyMode},
		"tricky create":   {plan: "s4/plan_a.json", config: "s4/stage_a.tf"},
		"tricky update":   {plan: "s4/plan_b.json", config: "s4/stage_b.tf"},
		"outputs only":    {plan: "s4/plan_c.json", config: "s4/stage_c.tf"},
		"destroy nothing": {plan: "empty/plan_destroy_noop.json", config: "empty/main.tf", mode: plans.DestroyMode},
		"moved":           {plan: "s5/plan_moved.json", config: "s5/stage2.tf"},
		"modules":         {plan: "s6/plan_modules.json", config: "s6"},
	}
	schemas := terraformSchemas(t)
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := planFromTerraform(t, tc.plan, tc.mode, schemas)
			doc, err := PlanJSON(p, schemas, terraformConfig(t, tc.config))
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
			if diff := cmp.Diff(want, got, jsonDocOpts); diff != "" {
				t.Errorf("PlanJSON() differs from Terraform's (-want +got):\n%s", diff)
			}
			wantConfig, gotConfig := configurationText(t, []byte(readGolden(t, "terraform/"+tc.plan))), configurationText(t, marshal(t, doc))
			if diff := cmp.Diff(wantConfig, gotConfig); diff != "" {
				t.Errorf("configuration differs from Terraform's (-want +got):\n%s", diff)
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
			doc, err := PlanJSON(p, schemas, nil)
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
