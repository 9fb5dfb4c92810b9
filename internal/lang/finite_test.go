package lang

import (
	"math"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestInfiniteNumber(t *testing.T) {
	inf := cty.NumberFloatVal(math.Inf(1))
	tests := map[string]struct {
		reason   string
		val      cty.Value
		wantPath cty.Path // nil: no diagnostic
		wantSign string
	}{
		"finite":      {val: cty.NumberIntVal(1)},
		"huge finite": {reason: "cty numbers are arbitrary-precision: 1e400 is stored exactly", val: cty.MustParseNumberVal("1e400")},
		"null":        {val: cty.NullVal(cty.Number)},
		"unknown":     {val: cty.UnknownVal(cty.Number)},
		"top":         {val: inf, wantPath: cty.Path{}, wantSign: "+"},
		"negative":    {val: cty.NumberFloatVal(math.Inf(-1)), wantPath: cty.Path{}, wantSign: "-"},
		"no numbers":  {val: cty.ObjectVal(map[string]cty.Value{"s": cty.StringVal("x")})},
		"object attr": {
			val:      cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.ObjectVal(map[string]cty.Value{"n": inf})}),
			wantPath: cty.GetAttrPath("b").GetAttr("n"), wantSign: "+",
		},
		"list element": {
			val:      cty.ListVal([]cty.Value{cty.NumberIntVal(1), inf}),
			wantPath: cty.IndexIntPath(1), wantSign: "+",
		},
		"map element": {
			val:      cty.MapVal(map[string]cty.Value{"k": inf}),
			wantPath: cty.IndexStringPath("k"), wantSign: "+",
		},
		"tuple in dynamic": {
			reason:   "terraform_data's input is dynamic: any shape can hold one",
			val:      cty.ObjectVal(map[string]cty.Value{"input": cty.TupleVal([]cty.Value{cty.StringVal("a"), inf})}),
			wantPath: cty.GetAttrPath("input").Index(cty.NumberIntVal(1)), wantSign: "+",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			d := InfiniteNumber(tc.val)
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
			if d.Summary != "Number out of range" || !strings.Contains(d.Detail, tc.wantSign+"Inf") {
				t.Errorf("%s\ndiagnostic %q: %q", tc.reason, d.Summary, d.Detail)
			}
		})
	}
}
