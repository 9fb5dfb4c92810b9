package valjson

import (
	"bytes"
	"math/big"
	"testing"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// checkMarshal asserts Marshal agrees with cty/json: the same bytes, or an
// error exactly when cty/json errs.
func checkMarshal(t *testing.T, v cty.Value, ty cty.Type) {
	t.Helper()
	want, wantErr := ctyjson.Marshal(v, ty)
	got, gotErr := Marshal(v, ty)
	if (wantErr == nil) != (gotErr == nil) {
		t.Fatalf("%#v as %s: error %v, cty/json error %v", v, ty.FriendlyName(), gotErr, wantErr)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%#v as %s:\n got %s\nwant %s", v, ty.FriendlyName(), got, want)
	}
}

func TestMarshalAgreesWithCtyJSON(t *testing.T) {
	obj := cty.Object(map[string]cty.Type{"id": cty.String, "input": cty.DynamicPseudoType, "n": cty.Number, "tags": cty.Map(cty.String)})
	big, _ := new(big.Float).SetString("123456789012345678901234567890.125")
	tests := map[string]struct {
		v  cty.Value
		ty cty.Type
	}{
		"plain":        {cty.StringVal("hello"), cty.String},
		"html":         {cty.StringVal("<a href=x&y>"), cty.String},
		"escapes":      {cty.StringVal("a\"b\\c\nd\te\x01\u2028\u00e9"), cty.String},
		"int":          {cty.NumberIntVal(-42), cty.Number},
		"float":        {cty.NumberFloatVal(1.5e-7), cty.Number},
		"big":          {cty.NumberVal(big), cty.Number},
		"infinity":     {cty.PositiveInfinity, cty.Number},
		"bool":         {cty.False, cty.Bool},
		"null":         {cty.NullVal(cty.String), cty.String},
		"null object":  {cty.NullVal(obj), obj},
		"list":         {cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}), cty.List(cty.String)},
		"set":          {cty.SetVal([]cty.Value{cty.NumberIntVal(3), cty.NumberIntVal(1)}), cty.Set(cty.Number)},
		"map":          {cty.MapVal(map[string]cty.Value{"z<": cty.True, "a": cty.False}), cty.Map(cty.Bool)},
		"tuple":        {cty.TupleVal([]cty.Value{cty.StringVal("x"), cty.NumberIntVal(1)}), cty.Tuple([]cty.Type{cty.String, cty.Number})},
		"dynamic":      {cty.ListVal([]cty.Value{cty.NumberIntVal(1)}), cty.DynamicPseudoType},
		"dynamic null": {cty.NullVal(cty.DynamicPseudoType), cty.DynamicPseudoType},
		"terraform_data": {cty.ObjectVal(map[string]cty.Value{
			"id": cty.StringVal("x"), "input": cty.ObjectVal(map[string]cty.Value{"b": cty.StringVal("in")}),
			"n": cty.NullVal(cty.Number), "tags": cty.MapValEmpty(cty.String),
		}), obj},
		"unknown":           {cty.UnknownVal(cty.String), cty.String},
		"marked":            {cty.StringVal("s").Mark("sensitive"), cty.String},
		"unicode attribute": {cty.ObjectVal(map[string]cty.Value{"é": cty.True}), cty.Object(map[string]cty.Type{"é": cty.Bool})},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) { checkMarshal(t, tc.v, tc.ty) })
	}
}

// FuzzMarshalAgreesWithCtyJSON decodes arbitrary JSON as each test type
// and checks both encoders write the value identically.
func FuzzMarshalAgreesWithCtyJSON(f *testing.F) {
	for _, s := range []string{`"a<b"`, `1.25`, `{"value":[1],"type":["list","number"]}`, `{"id":"x","input":null,"n":3,"tags":{"k":"\u2028"}}`, `[["a"]]`} {
		for i := range testTypes {
			f.Add([]byte(s), i)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte, i int) {
		if i < 0 {
			i = -i
		}
		ty := testTypes[i%len(testTypes)]
		v, err := ctyUnmarshal(src, ty)
		if err != nil || hasHugeNumber(v) {
			return
		}
		checkMarshal(t, v, ty)
	})
}

func BenchmarkMarshalTerraformData(b *testing.B) {
	obj := cty.Object(map[string]cty.Type{"id": cty.String, "input": cty.DynamicPseudoType, "output": cty.DynamicPseudoType, "triggers_replace": cty.DynamicPseudoType})
	v := cty.ObjectVal(map[string]cty.Value{
		"id": cty.StringVal("2c4f2a1e-7b0d-4b7e-9d3f-0b4c1d2e3f40"), "input": cty.StringVal("v1"), "output": cty.StringVal("v1"),
		"triggers_replace": cty.NullVal(cty.DynamicPseudoType),
	})
	for _, enc := range []struct {
		name string
		f    func(cty.Value, cty.Type) ([]byte, error)
	}{{"valjson", Marshal}, {"ctyjson", ctyjson.Marshal}} {
		b.Run(enc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := enc.f(v, obj); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// hasHugeNumber reports a number with millions of digits: both encoders
// write all of them, which takes the fuzzer's whole time budget.
func hasHugeNumber(v cty.Value) bool {
	huge := false
	_ = cty.Walk(v, func(_ cty.Path, v cty.Value) (bool, error) {
		if v.Type() == cty.Number && v.IsKnown() && !v.IsNull() {
			if e := v.AsBigFloat().MantExp(nil); e > 4096 || e < -4096 {
				huge = true
			}
		}
		return !huge, nil
	})
	return huge
}
