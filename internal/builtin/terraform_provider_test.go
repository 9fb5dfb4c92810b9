package builtin

import (
	"context"
	"fmt"
	"testing"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

var ctyOpts = cmp.Options{
	cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) }),
	cmp.Comparer(func(a, b cty.Path) bool { return a.Equals(b) }),
}

// diagView is what the tests compare of a diagnostic.
type diagView struct {
	Severity diags.Severity
	Summary  string
}

func viewDiags(ds diags.Diagnostics) []diagView {
	var out []diagView
	for _, d := range ds {
		out = append(out, diagView{d.Severity, d.Summary})
	}
	return out
}

var objTy = terraformDataSchema.ImpliedType()

// tfData builds a terraform_data object; nil arguments are null.
func tfData(id, input, output, triggers cty.Value) cty.Value {
	orNull := func(v cty.Value, ty cty.Type) cty.Value {
		if v == cty.NilVal {
			return cty.NullVal(ty)
		}
		return v
	}
	return cty.ObjectVal(map[string]cty.Value{
		"id":               orNull(id, cty.String),
		"input":            orNull(input, cty.DynamicPseudoType),
		"output":           orNull(output, cty.DynamicPseudoType),
		"triggers_replace": orNull(triggers, cty.DynamicPseudoType),
	})
}

var (
	id1       = cty.StringVal("id-1")
	plannedID = cty.UnknownVal(cty.String).RefineNotNull()
	hello     = cty.StringVal("hello")
	objInput  = cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(1), "b": cty.ListVal([]cty.Value{cty.True})})
)

func TestTerraformDataPlan(t *testing.T) {
	cases := map[string]struct {
		reason      string
		typeName    string
		prior       cty.Value
		proposed    cty.Value
		want        cty.Value
		wantReplace []cty.Path
		wantDiags   []diagView
	}{
		"Create": {
			reason:   "A new object's id is unknown but never null; output is unknown of input's type.",
			prior:    cty.NullVal(objTy),
			proposed: tfData(cty.NilVal, hello, cty.NilVal, cty.NilVal),
			want:     tfData(plannedID, hello, cty.UnknownVal(cty.String), cty.NilVal),
		},
		"CreateObjectInput": {
			prior:    cty.NullVal(objTy),
			proposed: tfData(cty.NilVal, objInput, cty.NilVal, cty.StringVal("t")),
			want:     tfData(plannedID, objInput, cty.UnknownVal(objInput.Type()), cty.StringVal("t")),
		},
		"CreateNullInput": {
			reason:   "Output always has input's type, so a null input plans a null output.",
			prior:    cty.NullVal(objTy),
			proposed: tfData(cty.NilVal, cty.NilVal, cty.NilVal, cty.NilVal),
			want:     tfData(plannedID, cty.NilVal, cty.NilVal, cty.NilVal),
		},
		"NoChange": {
			reason:   "The proposed state carries the prior's computed values; nothing changed, so the plan is the prior object.",
			prior:    tfData(id1, hello, hello, cty.StringVal("t")),
			proposed: tfData(id1, hello, hello, cty.StringVal("t")),
			want:     tfData(id1, hello, hello, cty.StringVal("t")),
		},
		"NoChangeSensitive": {
			reason:   "The plan of an unchanged object is the prior object, marks and all.",
			prior:    tfData(id1, hello.Mark("sensitive"), hello.Mark("sensitive"), cty.NilVal),
			proposed: tfData(id1, hello.Mark("sensitive"), hello.Mark("sensitive"), cty.NilVal),
			want:     tfData(id1, hello.Mark("sensitive"), hello.Mark("sensitive"), cty.NilVal),
		},
		"InputChanged": {
			reason:   "A new input only recomputes output; the object keeps its id.",
			prior:    tfData(id1, hello, hello, cty.NilVal),
			proposed: tfData(id1, cty.StringVal("bye"), hello, cty.NilVal),
			want:     tfData(id1, cty.StringVal("bye"), cty.UnknownVal(cty.String), cty.NilVal),
		},
		"InputChangedType": {
			prior:    tfData(id1, hello, hello, cty.NilVal),
			proposed: tfData(id1, cty.NumberIntVal(2), hello, cty.NilVal),
			want:     tfData(id1, cty.NumberIntVal(2), cty.UnknownVal(cty.Number), cty.NilVal),
		},
		"InputBecomesUnknown": {
			prior:    tfData(id1, hello, hello, cty.NilVal),
			proposed: tfData(id1, cty.UnknownVal(cty.String), hello, cty.NilVal),
			want:     tfData(id1, cty.UnknownVal(cty.String), cty.UnknownVal(cty.String), cty.NilVal),
		},
		"InputRemoved": {
			reason:   "As in Terraform, an input that changes to null leaves output unknown until apply copies the null over.",
			prior:    tfData(id1, hello, hello, cty.NilVal),
			proposed: tfData(id1, cty.NilVal, hello, cty.NilVal),
			want:     tfData(id1, cty.NilVal, cty.DynamicVal, cty.NilVal),
		},
		"TriggersChanged": {
			reason:      "A new triggers_replace value replaces the object: new id, output recomputed.",
			prior:       tfData(id1, hello, hello, cty.StringVal("t1")),
			proposed:    tfData(id1, hello, hello, cty.StringVal("t2")),
			want:        tfData(plannedID, hello, cty.UnknownVal(cty.String), cty.StringVal("t2")),
			wantReplace: []cty.Path{cty.GetAttrPath("triggers_replace")},
		},
		"TriggersAdded": {
			prior:       tfData(id1, cty.NilVal, cty.NilVal, cty.NilVal),
			proposed:    tfData(id1, cty.NilVal, cty.NilVal, cty.ListVal([]cty.Value{cty.StringVal("x")})),
			want:        tfData(plannedID, cty.NilVal, cty.NilVal, cty.ListVal([]cty.Value{cty.StringVal("x")})),
			wantReplace: []cty.Path{cty.GetAttrPath("triggers_replace")},
		},
		"TriggersUnknown": {
			reason:      "A trigger not known until apply may change, so the object is replaced.",
			prior:       tfData(id1, hello, hello, cty.StringVal("t1")),
			proposed:    tfData(id1, hello, hello, cty.UnknownVal(cty.String)),
			want:        tfData(plannedID, hello, cty.UnknownVal(cty.String), cty.UnknownVal(cty.String)),
			wantReplace: []cty.Path{cty.GetAttrPath("triggers_replace")},
		},
		"TriggersAndInputChanged": {
			prior:       tfData(id1, hello, hello, cty.StringVal("t1")),
			proposed:    tfData(id1, cty.StringVal("bye"), hello, cty.StringVal("t2")),
			want:        tfData(plannedID, cty.StringVal("bye"), cty.UnknownVal(cty.String), cty.StringVal("t2")),
			wantReplace: []cty.Path{cty.GetAttrPath("triggers_replace")},
		},
		"Destroy": {
			prior:    tfData(id1, hello, hello, cty.NilVal),
			proposed: cty.NullVal(objTy),
			want:     cty.NullVal(objTy),
		},
		"UnknownType": {
			typeName:  "terraform_other",
			prior:     cty.NullVal(objTy),
			proposed:  tfData(cty.NilVal, hello, cty.NilVal, cty.NilVal),
			want:      cty.NilVal,
			wantDiags: []diagView{{diags.Error, "Unsupported resource type"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			typeName := tc.typeName
			if typeName == "" {
				typeName = "terraform_data"
			}
			p := NewTerraformProvider()
			resp := p.PlanResourceChange(context.Background(), providers.PlanResourceChangeRequest{
				TypeName: typeName, PriorState: tc.prior, ProposedNewState: tc.proposed, Config: tc.proposed,
			})
			if diff := cmp.Diff(tc.wantDiags, viewDiags(resp.Diagnostics)); diff != "" {
				t.Errorf("%s\ndiagnostics: -want +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want, resp.PlannedState, ctyOpts); diff != "" {
				t.Errorf("%s\nplanned state: -want +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.wantReplace, resp.RequiresReplace, ctyOpts); diff != "" {
				t.Errorf("%s\nRequiresReplace: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestTerraformDataApply(t *testing.T) {
	cases := map[string]struct {
		reason    string
		typeName  string
		prior     cty.Value
		planned   cty.Value
		want      cty.Value
		wantDiags []diagView
	}{
		"Create": {
			reason:  "Apply fills the id from NewID and copies input to output.",
			prior:   cty.NullVal(objTy),
			planned: tfData(plannedID, hello, cty.UnknownVal(cty.String), cty.NilVal),
			want:    tfData(cty.StringVal("new-1"), hello, hello, cty.NilVal),
		},
		"CreateObjectInput": {
			prior:   cty.NullVal(objTy),
			planned: tfData(plannedID, objInput, cty.UnknownVal(objInput.Type()), cty.True),
			want:    tfData(cty.StringVal("new-1"), objInput, objInput, cty.True),
		},
		"CreateNullInput": {
			prior:   cty.NullVal(objTy),
			planned: tfData(plannedID, cty.NilVal, cty.NilVal, cty.NilVal),
			want:    tfData(cty.StringVal("new-1"), cty.NilVal, cty.NilVal, cty.NilVal),
		},
		"Update": {
			reason:  "A known id is kept.",
			prior:   tfData(id1, hello, hello, cty.NilVal),
			planned: tfData(id1, cty.StringVal("bye"), cty.UnknownVal(cty.String), cty.NilVal),
			want:    tfData(id1, cty.StringVal("bye"), cty.StringVal("bye"), cty.NilVal),
		},
		"Delete": {
			prior:   tfData(id1, hello, hello, cty.NilVal),
			planned: cty.NullVal(objTy),
			want:    cty.NullVal(objTy),
		},
		"UnknownType": {
			typeName:  "terraform_remote_state",
			prior:     cty.NullVal(objTy),
			planned:   tfData(plannedID, hello, cty.UnknownVal(cty.String), cty.NilVal),
			want:      cty.NilVal,
			wantDiags: []diagView{{diags.Error, "Unsupported resource type"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			typeName := tc.typeName
			if typeName == "" {
				typeName = "terraform_data"
			}
			n := 0
			p := &TerraformProvider{NewID: func() string { n++; return fmt.Sprintf("new-%d", n) }}
			resp := p.ApplyResourceChange(context.Background(), providers.ApplyResourceChangeRequest{
				TypeName: typeName, PriorState: tc.prior, PlannedState: tc.planned, Config: tc.planned,
			})
			if diff := cmp.Diff(tc.wantDiags, viewDiags(resp.Diagnostics)); diff != "" {
				t.Errorf("%s\ndiagnostics: -want +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want, resp.NewState, ctyOpts); diff != "" {
				t.Errorf("%s\nnew state: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestTerraformDataDefaultIDs(t *testing.T) {
	p := NewTerraformProvider()
	planned := tfData(plannedID, hello, cty.UnknownVal(cty.String), cty.NilVal)
	ids := map[string]bool{}
	for range 3 {
		resp := p.ApplyResourceChange(context.Background(), providers.ApplyResourceChangeRequest{
			TypeName: "terraform_data", PriorState: cty.NullVal(objTy), PlannedState: planned, Config: planned,
		})
		id := resp.NewState.GetAttr("id")
		if !id.IsKnown() || id.IsNull() || len(id.AsString()) != 36 {
			t.Fatalf("without NewID the id must be a UUID, got %#v", id)
		}
		ids[id.AsString()] = true
	}
	if len(ids) != 3 {
		t.Errorf("three creates gave %d distinct ids", len(ids))
	}
}

func TestTerraformDataUpgradeResourceState(t *testing.T) {
	cases := map[string]struct {
		reason    string
		typeName  string
		version   int64
		json      string
		want      cty.Value
		wantDiags []diagView
	}{
		"String": {
			reason: "Terraform 1.5.7 writes dynamic attributes as {value, type}; see statefile/testdata/tf_everything.tfstate.",
			json:   `{"id":"1686c2f3-d4a2-221d-c0b4-c04a983ab06c","input":{"value":"x\u003c\u0026\u003e\u2028 ünï","type":"string"},"output":{"value":"x\u003c\u0026\u003e\u2028 ünï","type":"string"},"triggers_replace":null}`,
			want:   tfData(cty.StringVal("1686c2f3-d4a2-221d-c0b4-c04a983ab06c"), cty.StringVal("x<&>\u2028 ünï"), cty.StringVal("x<&>\u2028 ünï"), cty.NilVal),
		},
		"Number": {
			json: `{"id":"13d4b560-3b20-1f6c-b496-61f533f13208","input":{"value":1.5,"type":"number"},"output":{"value":1.5,"type":"number"},"triggers_replace":null}`,
			want: tfData(cty.StringVal("13d4b560-3b20-1f6c-b496-61f533f13208"), cty.NumberFloatVal(1.5), cty.NumberFloatVal(1.5), cty.NilVal),
		},
		"ObjectAndTriggers": {
			reason: "Structural types keep their exact type: a tuple stays a tuple, a big number keeps every digit.",
			json: `{"id":"4ba5d228-c379-471b-f621-a7e594336c39",
"input":{"value":{"big":12345678901234567890,"k":"B","n":[1,2]},"type":["object",{"big":"number","k":"string","n":["tuple",["number","number"]]}]},
"output":{"value":{"big":12345678901234567890,"k":"B","n":[1,2]},"type":["object",{"big":"number","k":"string","n":["tuple",["number","number"]]}]},
"triggers_replace":{"value":["1686c2f3-d4a2-221d-c0b4-c04a983ab06c"],"type":["tuple",["string"]]}}`,
			want: func() cty.Value {
				in := cty.ObjectVal(map[string]cty.Value{
					"big": cty.MustParseNumberVal("12345678901234567890"),
					"k":   cty.StringVal("B"),
					"n":   cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(2)}),
				})
				return tfData(cty.StringVal("4ba5d228-c379-471b-f621-a7e594336c39"), in, in,
					cty.TupleVal([]cty.Value{cty.StringVal("1686c2f3-d4a2-221d-c0b4-c04a983ab06c")}))
			}(),
		},
		"NullInput": {
			json: `{"id":"x","input":null,"output":null,"triggers_replace":null}`,
			want: tfData(cty.StringVal("x"), cty.NilVal, cty.NilVal, cty.NilVal),
		},
		"NewerVersion": {
			reason:    "terraform_data has only schema version 0; anything newer was written by a newer program.",
			version:   1,
			json:      `{"id":"x","input":null,"output":null,"triggers_replace":null}`,
			want:      cty.NilVal,
			wantDiags: []diagView{{diags.Error, "Unsupported schema version"}},
		},
		"BareDynamicValue": {
			reason:    "A dynamic attribute without its type cannot be decoded.",
			json:      `{"id":"x","input":"hello","output":null,"triggers_replace":null}`,
			want:      cty.NilVal,
			wantDiags: []diagView{{diags.Error, "Invalid stored object"}},
		},
		"UnknownAttribute": {
			json:      `{"id":"x","input":null,"output":null,"triggers_replace":null,"extra":1}`,
			want:      cty.NilVal,
			wantDiags: []diagView{{diags.Error, "Invalid stored object"}},
		},
		"NotJSON": {
			json:      `{`,
			want:      cty.NilVal,
			wantDiags: []diagView{{diags.Error, "Invalid stored object"}},
		},
		"UnknownType": {
			typeName:  "null_resource",
			json:      `{"id":"x"}`,
			want:      cty.NilVal,
			wantDiags: []diagView{{diags.Error, "Unsupported resource type"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			typeName := tc.typeName
			if typeName == "" {
				typeName = "terraform_data"
			}
			resp := NewTerraformProvider().UpgradeResourceState(context.Background(), providers.UpgradeResourceStateRequest{
				TypeName: typeName, Version: tc.version, RawJSON: []byte(tc.json),
			})
			if diff := cmp.Diff(tc.wantDiags, viewDiags(resp.Diagnostics)); diff != "" {
				t.Errorf("%s\ndiagnostics: -want +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want, resp.UpgradedState, ctyOpts); diff != "" {
				t.Errorf("%s\nupgraded state: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestTerraformDataImportResourceState(t *testing.T) {
	cases := map[string]struct {
		typeName  string
		id        string
		want      []providers.ImportedResource
		wantDiags []diagView
	}{
		"Import": {
			typeName: "terraform_data",
			id:       "abc",
			want:     []providers.ImportedResource{{TypeName: "terraform_data", State: tfData(cty.StringVal("abc"), cty.NilVal, cty.NilVal, cty.NilVal)}},
		},
		"UnknownType": {
			typeName:  "terraform_thing",
			id:        "abc",
			wantDiags: []diagView{{diags.Error, "Unsupported resource type"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resp := NewTerraformProvider().ImportResourceState(context.Background(), providers.ImportResourceStateRequest{TypeName: tc.typeName, ID: tc.id})
			if diff := cmp.Diff(tc.wantDiags, viewDiags(resp.Diagnostics)); diff != "" {
				t.Errorf("diagnostics: -want +got:\n%s", diff)
			}
			if diff := cmp.Diff(tc.want, resp.ImportedResources, ctyOpts); diff != "" {
				t.Errorf("imported: -want +got:\n%s", diff)
			}
			for _, r := range resp.ImportedResources {
				if errs := r.State.Type().TestConformance(objTy); len(errs) > 0 {
					t.Errorf("imported state does not conform to the schema: %v", errs)
				}
			}
		})
	}
}

func TestTerraformProviderSchemaAndValidation(t *testing.T) {
	p := NewTerraformProvider()
	schema := p.GetProviderSchema(context.Background())
	if got := schema.ResourceTypes["terraform_data"].Block; got != terraformDataSchema {
		t.Errorf("terraform_data schema is not the one the provider plans with")
	}
	if len(schema.DataSources) != 1 || schema.DataSources["terraform_remote_state"].Block != remoteStateSchema {
		t.Errorf("data sources: %v, want terraform_remote_state only", schema.DataSources)
	}
	validate := func(config cty.Value) diags.Diagnostics {
		return p.ValidateResourceConfig(context.Background(), providers.ValidateResourceConfigRequest{TypeName: "terraform_data", Config: config}).Diagnostics
	}
	cases := map[string]struct {
		got  diags.Diagnostics
		want []diagView
	}{
		"ValidResource":   {got: p.ValidateResourceConfig(context.Background(), providers.ValidateResourceConfigRequest{TypeName: "terraform_data"}).Diagnostics},
		"InvalidResource": {got: p.ValidateResourceConfig(context.Background(), providers.ValidateResourceConfigRequest{TypeName: "terraform_x"}).Diagnostics, want: []diagView{{diags.Error, "Unsupported resource type"}}},
		"DataSource":      {got: p.ValidateDataResourceConfig(context.Background(), providers.ValidateDataResourceConfigRequest{TypeName: "terraform_nope"}).Diagnostics, want: []diagView{{diags.Error, "Unsupported data source"}}},
		"ConfigWithInput": {got: validate(tfData(cty.NilVal, hello, cty.NilVal, hello))},
		"OutputSet":       {got: validate(tfData(cty.NilVal, cty.NilVal, hello, cty.NilVal)), want: []diagView{{diags.Error, `"output" attribute is read-only`}}},
		"IDSet":           {got: validate(tfData(id1, cty.NilVal, cty.NilVal, cty.NilVal)), want: []diagView{{diags.Error, `"id" attribute is read-only`}}},
		"ReadDataSource":  {got: p.ReadDataSource(context.Background(), providers.ReadDataSourceRequest{TypeName: "terraform_nope"}).Diagnostics, want: []diagView{{diags.Error, "Unsupported data source"}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, viewDiags(tc.got)); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}

	t.Run("ReadResourceNeverDrifts", func(t *testing.T) {
		prior := tfData(id1, hello, hello, cty.NilVal)
		resp := p.ReadResource(context.Background(), providers.ReadResourceRequest{TypeName: "terraform_data", PriorState: prior, Private: []byte("p")})
		if diff := cmp.Diff(prior, resp.NewState, ctyOpts); diff != "" {
			t.Errorf("-want +got:\n%s", diff)
		}
		if string(resp.Private) != "p" {
			t.Errorf("private data not returned: %q", resp.Private)
		}
	})
}
