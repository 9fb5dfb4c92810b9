package lang

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestUnstorableNumber(t *testing.T) {
	inf := cty.NumberFloatVal(math.Inf(1))
	tests := map[string]struct {
		reason   string
		val      cty.Value
		wantPath cty.Path // nil: no diagnostic
		wantWhat string
	}{
		"finite":       {val: cty.NumberIntVal(1)},
		"huge finite":  {reason: "cty numbers are arbitrary-precision: 1e400 is stored exactly", val: cty.MustParseNumberVal("1e400")},
		"tiny finite":  {val: cty.MustParseNumberVal("-1e-400")},
		"at the limit": {reason: "0.75×2^32768: the largest exponent kept", val: cty.NumberVal(new(big.Float).SetMantExp(big.NewFloat(0.75), MaxNumberExponent))},
		"too large": {
			reason: "1e30000000 is finite, but writing it out took minutes", val: cty.MustParseNumberVal("1e30000000"),
			wantPath: cty.Path{}, wantWhat: "about 1e30000000",
		},
		"too small":  {val: cty.MustParseNumberVal("-1e-30000000"), wantPath: cty.Path{}, wantWhat: "about 1e-30000000"},
		"null":       {val: cty.NullVal(cty.Number)},
		"unknown":    {val: cty.UnknownVal(cty.Number)},
		"top":        {val: inf, wantPath: cty.Path{}, wantWhat: "+Inf"},
		"negative":   {val: cty.NumberFloatVal(math.Inf(-1)), wantPath: cty.Path{}, wantWhat: "-Inf"},
		"no numbers": {val: cty.ObjectVal(map[string]cty.Value{"s": cty.StringVal("x")})},
		"object attr": {
			val:      cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.ObjectVal(map[string]cty.Value{"n": inf})}),
			wantPath: cty.GetAttrPath("b").GetAttr("n"), wantWhat: "+Inf",
		},
		"list element": {
			val:      cty.ListVal([]cty.Value{cty.NumberIntVal(1), inf}),
			wantPath: cty.IndexIntPath(1), wantWhat: "+Inf",
		},
		"map element": {
			val:      cty.MapVal(map[string]cty.Value{"k": inf}),
			wantPath: cty.IndexStringPath("k"), wantWhat: "+Inf",
		},
		"tuple in dynamic": {
			reason:   "terraform_data's input is dynamic: any shape can hold one",
			val:      cty.ObjectVal(map[string]cty.Value{"input": cty.TupleVal([]cty.Value{cty.StringVal("a"), inf})}),
			wantPath: cty.GetAttrPath("input").Index(cty.NumberIntVal(1)), wantWhat: "+Inf",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			d := UnstorableNumber(tc.val)
			if tc.wantPath == nil {
				if d != nil {
					t.Fatalf("%s\nunexpected diagnostic: %v", tc.reason, d)
				}
				return
			}
			if d == nil {
				t.Fatalf("%s\nno diagnostic for %#v", tc.reason, tc.val)
			}
			if !tc.wantPath.Equals(d.Path) {
				t.Errorf("%s\npath %#v, want %#v", tc.reason, d.Path, tc.wantPath)
			}
			if d.Summary != "Number out of range" || !strings.Contains(d.Detail, tc.wantWhat) {
				t.Errorf("%s\ndiagnostic %q: %q", tc.reason, d.Summary, d.Detail)
			}
		})
	}
}
