package tfproto6

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/zclconf/go-cty/cty"
)

// TestConvertFunctions converts function declarations; one that cannot
// be used is left out with an error naming it, and the others are kept.
func TestConvertFunctions(t *testing.T) {
	in := map[string]*tfprotov6.Function{
		"ok": {
			Parameters: []*tfprotov6.FunctionParameter{{Name: "a", Type: tftypes.String, AllowNullValue: true}},
			VariadicParameter: &tfprotov6.FunctionParameter{Name: "rest", Type: tftypes.List{ElementType: tftypes.Number},
				AllowUnknownValues: true},
			Return: &tfprotov6.FunctionReturn{Type: tftypes.DynamicPseudoType},
		},
		"no_return": {},
		"bad_param": {Parameters: []*tfprotov6.FunctionParameter{nil}, Return: &tfprotov6.FunctionReturn{Type: tftypes.Bool}},
	}
	out, ds := convertFunctions(in)
	ok, found := out["ok"]
	if !found || len(out) != 1 {
		t.Fatalf("kept %v, want only ok", out)
	}
	if p := ok.Parameters[0]; p.Type != cty.String || !p.AllowNullValue || p.AllowUnknownValues {
		t.Errorf("parameter: %+v", p)
	}
	if v := ok.VariadicParameter; v == nil || !v.Type.Equals(cty.List(cty.Number)) || !v.AllowUnknownValues {
		t.Errorf("variadic parameter: %+v", v)
	}
	if ok.Return != cty.DynamicPseudoType {
		t.Errorf("return: %#v", ok.Return)
	}
	if len(ds) != 2 || !strings.Contains(ds[0].Detail+ds[0].Summary, `"bad_param"`) || !strings.Contains(ds[1].Detail+ds[1].Summary, `"no_return"`) {
		t.Errorf("diagnostics: %v", ds)
	}
}
