package eval

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// TestConvertOutputValue checks Terraform 1.15's output type constraints:
// the value converts, optional attributes get their defaults, marks and
// unknowns survive, and what cannot convert is the error at the value.
func TestConvertOutputValue(t *testing.T) {
	secret := cty.StringVal("s").Mark(configschema.SensitiveMark)
	tests := map[string]struct {
		reason string
		typ    string
		val    cty.Value
		want   cty.Value
		diags  []diagView
	}{
		"number to string": {reason: "converted as a variable's value is",
			typ: "string", val: cty.NumberIntVal(8080), want: cty.StringVal("8080")},
		"tuple to set": {reason: "duplicates fold",
			typ: "set(string)", val: cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.StringVal("a")}),
			want: cty.SetVal([]cty.Value{cty.StringVal("a")})},
		"optional default": {reason: "the optional attribute's default fills in",
			typ:  `object({ a = string, b = optional(bool, true), c = optional(number) })`,
			val:  cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x")}),
			want: cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.True, "c": cty.NullVal(cty.Number)})},
		"unknown": {reason: "an unknown value takes the type",
			typ: "list(string)", val: cty.DynamicVal, want: cty.UnknownVal(cty.List(cty.String))},
		"marks kept": {reason: "a sensitive element stays sensitive",
			typ: "list(string)", val: cty.TupleVal([]cty.Value{secret}), want: cty.ListVal([]cty.Value{secret})},
		"mismatch": {reason: "Terraform's error at the value expression",
			typ: "number", val: cty.StringVal("abc"),
			diags: []diagView{errAt("Invalid output value", "main.tf:3:11")}},
		"missing attribute": {reason: "a required attribute missing",
			typ: `object({ a = string })`, val: cty.EmptyObjectVal,
			diags: []diagView{errAt("Invalid output value", "main.tf:3:11")}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			mod := loadModule(t, "output \"o\" {\n  type  = "+tc.typ+"\n  value = null\n}\n")
			got, d := ConvertOutputValue(mod.Outputs["o"], tc.val)
			var ds diags.Diagnostics
			if d != nil {
				ds = append(ds, *d)
			}
			if diff := cmp.Diff(tc.diags, viewDiags(ds)); diff != "" {
				t.Fatalf("%s: diagnostics (-want +got):\n%s", tc.reason, diff)
			}
			if d == nil {
				if diff := cmp.Diff(tc.want, got, ctyOpts); diff != "" {
					t.Errorf("%s: value (-want +got):\n%s", tc.reason, diff)
				}
			}
		})
	}
}
