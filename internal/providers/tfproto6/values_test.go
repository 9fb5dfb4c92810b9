package tfproto6

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/zclconf/go-cty/cty"
)

func TestValueRoundTrip(t *testing.T) {
	obj := cty.Object(map[string]cty.Type{"s": cty.String, "l": cty.List(cty.Number), "d": cty.DynamicPseudoType})
	cases := map[string]struct {
		reason string
		ty     cty.Type
		v      cty.Value
	}{
		"known":          {"A known object crosses unchanged.", obj, cty.ObjectVal(map[string]cty.Value{"s": cty.StringVal("x"), "l": cty.ListVal([]cty.Value{cty.NumberIntVal(1)}), "d": cty.True})},
		"null":           {"A null object stays null.", obj, cty.NullVal(obj)},
		"unknown":        {"A wholly unknown object stays unknown.", obj, cty.UnknownVal(obj)},
		"unknown inside": {"Unknown attributes and elements stay unknown.", obj, cty.ObjectVal(map[string]cty.Value{"s": cty.UnknownVal(cty.String), "l": cty.ListVal([]cty.Value{cty.UnknownVal(cty.Number)}), "d": cty.DynamicVal})},
		"unknown set":    {"A set with an unknown element.", cty.Set(cty.String), cty.SetVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String)})},
		"refined":        {"Refinements of unknowns survive, as in Terraform's msgpack.", cty.String, cty.UnknownVal(cty.String).RefineNotNull()},
		"dynamic":        {"A dynamic value keeps its concrete type.", cty.DynamicPseudoType, cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.NumberIntVal(2)})},
		"big number":     {"Numbers keep their precision.", cty.Number, cty.MustParseNumberVal("123456789012345678901234567890.5")},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dv, err := encodeValue(tc.v, tc.ty)
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			got, err := decodeValue(dv, tc.ty)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if !got.RawEquals(tc.v) {
				t.Errorf("%s\ngot  %#v\nwant %#v", tc.reason, got, tc.v)
			}
		})
	}
}

// TestValuesMeetTerraformPluginGo checks the encoding is the one
// terraform-plugin-go reads: what the adapter encodes, tftypes decodes with
// unknowns in place, and what tftypes encodes, the adapter decodes.
func TestValuesMeetTerraformPluginGo(t *testing.T) {
	ty := cty.Object(map[string]cty.Type{"s": cty.String, "n": cty.Number})
	tfty := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"s": tftypes.String, "n": tftypes.Number}}

	dv, err := encodeValue(cty.ObjectVal(map[string]cty.Value{"s": cty.StringVal("x"), "n": cty.UnknownVal(cty.Number).RefineNotNull()}), ty)
	if err != nil {
		t.Fatal(err)
	}
	tv, err := dv.Unmarshal(tfty)
	if err != nil {
		t.Fatalf("tftypes decoding our msgpack: %v", err)
	}
	var attrs map[string]tftypes.Value
	if err := tv.As(&attrs); err != nil {
		t.Fatal(err)
	}
	if attrs["n"].IsKnown() || !attrs["s"].Equal(tftypes.NewValue(tftypes.String, "x")) {
		t.Errorf("tftypes read %v", tv)
	}

	back, err := tfprotov6.NewDynamicValue(tfty, tftypes.NewValue(tfty, map[string]tftypes.Value{
		"s": tftypes.NewValue(tftypes.String, tftypes.UnknownValue), "n": tftypes.NewValue(tftypes.Number, 7)}))
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeValue(&back, ty)
	if err != nil {
		t.Fatal(err)
	}
	want := cty.ObjectVal(map[string]cty.Value{"s": cty.UnknownVal(cty.String), "n": cty.NumberIntVal(7)})
	if !got.RawEquals(want) {
		t.Errorf("decoded %#v, want %#v", got, want)
	}
}

func TestDecodeJSONAndNil(t *testing.T) {
	ty := cty.Object(map[string]cty.Type{"s": cty.String})
	got, err := decodeValue(&tfprotov6.DynamicValue{JSON: []byte(`{"s":"j"}`)}, ty)
	if err != nil || !got.RawEquals(cty.ObjectVal(map[string]cty.Value{"s": cty.StringVal("j")})) {
		t.Errorf("JSON: %#v %v", got, err)
	}
	got, err = decodeValue(nil, ty)
	if err != nil || !got.RawEquals(cty.NullVal(ty)) {
		t.Errorf("nil: %#v %v, want null", got, err)
	}
	if _, err := encodeValue(cty.StringVal("x").Mark("sensitive"), cty.String); err == nil {
		t.Errorf("a marked value encoded; want an error")
	}
}
