package tfproto6

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/zclconf/go-cty/cty"
)

// FuzzDecodeValue feeds arbitrary bytes to the value decoder as msgpack
// and as JSON. The property: a value of the schema's type, or an error;
// never a panic or a runaway allocation.
func FuzzDecodeValue(f *testing.F) {
	ty := cty.Object(map[string]cty.Type{
		"s": cty.String, "l": cty.List(cty.Number), "m": cty.Map(cty.Bool),
		"set": cty.Set(cty.Object(map[string]cty.Type{"k": cty.String})), "d": cty.DynamicPseudoType,
	})
	for _, v := range []cty.Value{
		cty.NullVal(ty), cty.UnknownVal(ty),
		cty.ObjectVal(map[string]cty.Value{
			"s": cty.StringVal("x"), "l": cty.ListVal([]cty.Value{cty.NumberIntVal(1), cty.UnknownVal(cty.Number)}),
			"m": cty.MapVal(map[string]cty.Value{"a": cty.True}), "set": cty.NullVal(ty.AttributeType("set")),
			"d": cty.StringVal("dyn"),
		}),
	} {
		dv, err := encodeValue(v, ty)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(dv.MsgPack, false)
	}
	f.Add([]byte(`{"s":"x","l":[1],"m":{"a":true},"set":[{"k":"v"}],"d":{"value":"x","type":"string"}}`), true)
	f.Fuzz(func(t *testing.T, b []byte, asJSON bool) {
		dv := &tfprotov6.DynamicValue{MsgPack: b}
		if asJSON {
			dv = &tfprotov6.DynamicValue{JSON: b}
		}
		v, err := decodeValue(dv, ty)
		if err != nil {
			return
		}
		if errs := v.Type().TestConformance(ty); len(errs) > 0 {
			t.Fatalf("decoded a %s, which does not conform to %s: %v", v.Type().FriendlyName(), ty.FriendlyName(), errs)
		}
	})
}
