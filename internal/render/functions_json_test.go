package render

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// TestFunctionsJSON: each function's signature as metadata functions
// -json writes it, read back with terraform-json.
func TestFunctionsJSON(t *testing.T) {
	tests := map[string]struct {
		reason string
		fn     function.Function
		want   string // the signature's JSON; "" when left out
	}{
		"join": {
			reason: "parameters, a variadic parameter and a static result type",
			fn: function.New(&function.Spec{
				Description: "Joins.",
				Params:      []function.Parameter{{Name: "sep", Description: "Between.", Type: cty.String}},
				VarParam:    &function.Parameter{Name: "lists", Type: cty.List(cty.String)},
				Type:        function.StaticReturnType(cty.String),
			}),
			want: `{"description":"Joins.","return_type":"string","parameters":[{"name":"sep","description":"Between.","type":"string"}],"variadic_parameter":{"name":"lists","type":["list","string"]}}`,
		},
		"coalesce": {
			reason: "is_nullable when null is accepted; a result type that depends on the arguments is dynamic",
			fn:     stdlib.CoalesceFunc,
			want:   `{"description":"` + stdlib.CoalesceFunc.Description() + `","return_type":"dynamic","variadic_parameter":{"name":"vals","is_nullable":true,"type":"dynamic"}}`,
		},
		"try": {
			reason: "an expression parameter (a capsule type) is dynamic; a result that needs values is dynamic",
			fn:     tryfunc.TryFunc,
			want:   `{"return_type":"dynamic","variadic_parameter":{"name":"expressions","type":"dynamic"}}`,
		},
		"can": {
			reason: "an expression parameter, with a static result",
			fn:     tryfunc.CanFunc,
			want:   `{"return_type":"bool","parameters":[{"name":"expression","type":"dynamic"}]}`,
		},
		"provider::p::f": {
			reason: "provider functions are not the language's",
			fn:     function.New(&function.Spec{Type: function.StaticReturnType(cty.String)}),
		},
	}
	fns := map[string]function.Function{}
	for name, tc := range tests {
		fns[name] = tc.fn
	}
	raw, err := json.Marshal(FunctionsJSON(fns))
	if err != nil {
		t.Fatal(err)
	}
	var doc tfjson.MetadataFunctions
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("terraform-json cannot read the document: %v", err)
	}
	var sigs struct {
		Signatures map[string]json.RawMessage `json:"function_signatures"`
	}
	if err := json.Unmarshal(raw, &sigs); err != nil {
		t.Fatal(err)
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := string(sigs.Signatures[name])
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n(-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}
