package valjson

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

var testTypes = []cty.Type{
	cty.String, cty.Number, cty.Bool, cty.DynamicPseudoType,
	cty.List(cty.String), cty.Set(cty.Number), cty.Map(cty.Bool),
	cty.Tuple([]cty.Type{cty.String, cty.Number}),
	cty.Object(map[string]cty.Type{"id": cty.String, "input": cty.DynamicPseudoType, "n": cty.Number, "tags": cty.Map(cty.String)}),
	cty.List(cty.Object(map[string]cty.Type{"a": cty.String})),
}

// check asserts Unmarshal agrees with cty/json on src for ty: the same
// value, or an error exactly when cty/json errs.
func check(t *testing.T, src []byte, ty cty.Type) {
	t.Helper()
	want, wantErr := ctyUnmarshal(src, ty)
	got, gotErr := Unmarshal(src, ty)
	if (wantErr == nil) != (gotErr == nil) {
		t.Fatalf("%s as %s: error %v, cty/json error %v", src, ty.FriendlyName(), gotErr, wantErr)
	}
	if wantErr == nil && !got.RawEquals(want) {
		t.Fatalf("%s as %s:\n got %#v\nwant %#v", src, ty.FriendlyName(), got, want)
	}
}

func TestAgreesWithCtyJSON(t *testing.T) {
	tests := map[string]struct {
		src string
		ty  cty.Type
	}{
		"string":             {`"hello"`, cty.String},
		"escapes":            {`"a\"b\\c\nd\/e\u00e9"`, cty.String},
		"string from number": {`12`, cty.String},
		"number int":         {`42`, cty.Number},
		"number big":         {`123456789012345678901234567890`, cty.Number},
		"number float":       {`1.5e3`, cty.Number},
		"number from string": {`"7"`, cty.Number},
		"bool":               {`true`, cty.Bool},
		"null":               {`null`, cty.String},
		"list":               {`["a","b"]`, cty.List(cty.String)},
		"empty set":          {`[]`, cty.Set(cty.Number)},
		"set dupes":          {`[1,1,2]`, cty.Set(cty.Number)},
		"map":                {`{"k":true}`, cty.Map(cty.Bool)},
		"tuple":              {`["x",1]`, cty.Tuple([]cty.Type{cty.String, cty.Number})},
		"tuple too long":     {`["x",1,2]`, cty.Tuple([]cty.Type{cty.String, cty.Number})},
		"dynamic string":     {`{"value":"v","type":"string"}`, cty.DynamicPseudoType},
		"dynamic reversed":   {`{"type":["list","number"],"value":[1,2]}`, cty.DynamicPseudoType},
		"dynamic object":     {`{"value":{"a":{"b":[true]}},"type":["object",{"a":["object",{"b":["list","bool"]}]}]}`, cty.DynamicPseudoType},
		"terraform_data": {`{"id":"x","input":{"value":"in","type":"string"},"n":null,"tags":{}}`,
			cty.Object(map[string]cty.Type{"id": cty.String, "input": cty.DynamicPseudoType, "n": cty.Number, "tags": cty.Map(cty.String)})},
		"missing attribute":     {`{"id":"x"}`, cty.Object(map[string]cty.Type{"id": cty.String, "n": cty.Number})},
		"unsupported attribute": {`{"zz":1}`, cty.Object(map[string]cty.Type{"id": cty.String})},
		"syntax error":          {`{"id":`, cty.Object(map[string]cty.Type{"id": cty.String})},
		"trailing garbage":      {`"a" x`, cty.String},
		"invalid utf8":          {"\"\xff\"", cty.String},
		"short tuple":           {`[]`, cty.Tuple([]cty.Type{cty.String, cty.Number})},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) { check(t, []byte(tc.src), tc.ty) })
	}
}

func FuzzAgreesWithCtyJSON(f *testing.F) {
	for _, s := range []string{`"a"`, `1`, `{"value":[1],"type":["list","number"]}`, `{"id":"x","input":null}`, `[["a"]]`} {
		for i := range testTypes {
			f.Add([]byte(s), i)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte, i int) {
		if i < 0 {
			i = -i
		}
		check(t, src, testTypes[i%len(testTypes)])
	})
}

func BenchmarkUnmarshalTerraformData(b *testing.B) {
	ty := cty.Object(map[string]cty.Type{"id": cty.String, "input": cty.DynamicPseudoType, "output": cty.DynamicPseudoType, "triggers_replace": cty.DynamicPseudoType})
	src := []byte(`{"id":"0f6a3f4e-7f1c-4c9e-9d0a-1b2c3d4e5f60","input":{"value":"v123","type":"string"},"output":{"value":"v123","type":"string"},"triggers_replace":null}`)
	b.Run("valjson", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Unmarshal(src, ty); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cty-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ctyjson.Unmarshal(src, ty); err != nil {
				b.Fatal(err)
			}
		}
	})
}
