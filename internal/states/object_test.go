package states_test

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// terraformDataType is the schema type of Terraform's built-in
// terraform_data resource, whose input, output and triggers_replace are
// dynamically typed.
var terraformDataType = cty.Object(map[string]cty.Type{
	"id":               cty.String,
	"input":            cty.DynamicPseudoType,
	"output":           cty.DynamicPseudoType,
	"triggers_replace": cty.DynamicPseudoType,
})

// TestObjectDynamicAttributes checks that Decode and Encode read and write
// dynamically typed attributes as Terraform 1.5.7 stores them: each value
// wrapped with its type, {"value": ..., "type": ...}, and null unwrapped.
// The attribute JSON below is what Terraform 1.5.7 wrote for terraform_data
// (see statefile/testdata/tf_everything.tfstate).
func TestObjectDynamicAttributes(t *testing.T) {
	tests := map[string]struct {
		reason    string
		attrs     string
		sensitive []cty.Path
		want      cty.Value
	}{
		"string input": {
			attrs: `{"id":"1686c2f3","input":{"value":"x","type":"string"},"output":{"value":"x","type":"string"},"triggers_replace":null}`,
			want: cty.ObjectVal(map[string]cty.Value{
				"id":               cty.StringVal("1686c2f3"),
				"input":            cty.StringVal("x"),
				"output":           cty.StringVal("x"),
				"triggers_replace": cty.NullVal(cty.DynamicPseudoType),
			}),
		},
		"structural input": {
			reason: "the type is written in full, tuple and object types included",
			attrs: `{"id":"a","input":{"value":{"k":"a","n":[1,2]},"type":["object",{"k":"string","n":["tuple",["number","number"]]}]},` +
				`"output":null,"triggers_replace":{"value":["a"],"type":["tuple",["string"]]}}`,
			want: cty.ObjectVal(map[string]cty.Value{
				"id":               cty.StringVal("a"),
				"input":            cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal("a"), "n": cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(2)})}),
				"output":           cty.NullVal(cty.DynamicPseudoType),
				"triggers_replace": cty.TupleVal([]cty.Value{cty.StringVal("a")}),
			}),
		},
		"sensitive input": {
			reason:    "Terraform marks the input from a sensitive variable, not the output copied from it",
			attrs:     `{"id":"s","input":{"value":"hunter2","type":"string"},"output":{"value":"hunter2","type":"string"},"triggers_replace":null}`,
			sensitive: []cty.Path{cty.GetAttrPath("input")},
			want: cty.ObjectVal(map[string]cty.Value{
				"id":               cty.StringVal("s"),
				"input":            cty.StringVal("hunter2").Mark(configschema.SensitiveMark),
				"output":           cty.StringVal("hunter2"),
				"triggers_replace": cty.NullVal(cty.DynamicPseudoType),
			}),
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			src := &states.ObjectSrc{AttrsJSON: []byte(tc.attrs), AttrSensitivePaths: tc.sensitive, Status: states.ObjectReady}
			obj, err := src.Decode(terraformDataType)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if !obj.Value.RawEquals(tc.want) {
				t.Errorf("Decode: got %#v, want %#v", obj.Value, tc.want)
			}
			back, err := obj.Encode(terraformDataType, 0)
			if err != nil {
				t.Fatalf("Encode: %v", err)
			}
			if diff := cmp.Diff(tc.attrs, string(back.AttrsJSON)); diff != "" {
				t.Errorf("Encode attributes (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(len(tc.sensitive), len(back.AttrSensitivePaths)); diff != "" {
				t.Errorf("Encode sensitive paths (-want +got):\n%s", diff)
			}
		})
	}
}
