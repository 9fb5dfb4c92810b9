package states

import (
	"math"
	"math/big"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestFirstUnstorableNumber(t *testing.T) {
	inf := cty.NumberFloatVal(math.Inf(1))
	tests := map[string]struct {
		reason   string
		val      cty.Value
		wantPath cty.Path // nil: every number can be stored
		wantWhat string
	}{
		"finite":       {val: cty.NumberIntVal(1)},
		"zero":         {val: cty.NumberIntVal(0)},
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
		"top":        {val: inf, wantPath: cty.Path{}, wantWhat: "+Inf (infinite)"},
		"negative":   {val: cty.NumberFloatVal(math.Inf(-1)), wantPath: cty.Path{}, wantWhat: "-Inf (infinite)"},
		"no numbers": {val: cty.ObjectVal(map[string]cty.Value{"s": cty.StringVal("x")})},
		"object attr": {
			val:      cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.ObjectVal(map[string]cty.Value{"n": inf})}),
			wantPath: cty.GetAttrPath("b").GetAttr("n"), wantWhat: "+Inf (infinite)",
		},
		"list element": {
			val:      cty.ListVal([]cty.Value{cty.NumberIntVal(1), inf}),
			wantPath: cty.IndexIntPath(1), wantWhat: "+Inf (infinite)",
		},
		"map element": {
			val:      cty.MapVal(map[string]cty.Value{"k": inf}),
			wantPath: cty.IndexStringPath("k"), wantWhat: "+Inf (infinite)",
		},
		"set element": {
			reason:   "a set element has no key: its step is an unknown index, as cty paths into sets are",
			val:      cty.SetVal([]cty.Value{inf}),
			wantPath: cty.Path{cty.IndexStep{Key: cty.UnknownVal(cty.Number)}}, wantWhat: "+Inf (infinite)",
		},
		"tuple in dynamic": {
			reason:   "terraform_data's input is dynamic: any shape can hold one",
			val:      cty.ObjectVal(map[string]cty.Value{"input": cty.TupleVal([]cty.Value{cty.StringVal("a"), inf})}),
			wantPath: cty.GetAttrPath("input").Index(cty.NumberIntVal(1)), wantWhat: "+Inf (infinite)",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			path, what, found := FirstUnstorableNumber(tc.val)
			if found != (tc.wantPath != nil) {
				t.Fatalf("%s\nfound %t (at %#v, %q), want %t", tc.reason, found, path, what, tc.wantPath != nil)
			}
			if !found {
				return
			}
			if !tc.wantPath.Equals(path) {
				t.Errorf("%s\npath %#v, want %#v", tc.reason, path, tc.wantPath)
			}
			if what != tc.wantWhat {
				t.Errorf("%s\nwhat %q, want %q", tc.reason, what, tc.wantWhat)
			}
			if tc.val.Type() == cty.Number && NumberStorable(tc.val) {
				t.Errorf("%s\nNumberStorable accepts the number FirstUnstorableNumber refuses", tc.reason)
			}
		})
	}
}

// BenchmarkFirstUnstorableNumber is the check on every resource's
// configuration before it reaches a provider: a value without numbers is
// not walked and allocates nothing.
func BenchmarkFirstUnstorableNumber(b *testing.B) {
	v := cty.ObjectVal(map[string]cty.Value{
		"name": cty.StringVal("x"),
		"tags": cty.MapVal(map[string]cty.Value{"a": cty.StringVal("b")}),
	})
	b.ReportAllocs()
	for b.Loop() {
		FirstUnstorableNumber(v)
	}
}
