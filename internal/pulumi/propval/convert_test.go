package propval

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/configschema"
)

func testBlock() *configschema.Block {
	return &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"name":        {Type: cty.String, Required: true},
			"port_number": {Type: cty.Number, Optional: true},
			"enabled":     {Type: cty.Bool, Optional: true},
			"password":    {Type: cty.String, Optional: true, Sensitive: true},
			"tags":        {Type: cty.Map(cty.String), Optional: true},
			"zones":       {Type: cty.Set(cty.String), Optional: true},
			"extra":       {Type: cty.DynamicPseudoType, Optional: true},
			"id":          {Type: cty.String, Computed: true},
		},
		BlockTypes: map[string]*configschema.NestedBlock{
			"rules": {Nesting: configschema.NestingList, Block: configschema.Block{
				Attributes: map[string]*configschema.Attribute{
					"from_port":   {Type: cty.Number, Required: true},
					"cidr_blocks": {Type: cty.List(cty.String), Optional: true},
				},
			}},
		},
	}
}

// obj fills the attributes of the test block not given with nulls.
func obj(attrs map[string]cty.Value) cty.Value {
	full := map[string]cty.Value{}
	for name, ty := range testBlock().ImpliedType().AttributeTypes() {
		full[name] = cty.NullVal(ty)
	}
	for k, v := range attrs {
		full[k] = v
	}
	return cty.ObjectVal(full)
}

var ruleTy = testBlock().BlockTypes["rules"].Block.ImpliedType()

func rule(port cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"from_port": port, "cidr_blocks": cty.NullVal(cty.List(cty.String))})
}

func TestToCty(t *testing.T) {
	secret := configschema.SensitiveMark
	cases := map[string]struct {
		reason  string
		in      resource.PropertyMap
		want    cty.Value
		wantErr string
	}{
		"Empty": {reason: "absent properties are null", in: resource.PropertyMap{}, want: obj(nil)},
		"CamelCase": {
			reason: "snake_case attributes read camelCase keys",
			in:     resource.PropertyMap{"name": resource.NewStringProperty("a"), "portNumber": resource.NewNumberProperty(443)},
			want:   obj(map[string]cty.Value{"name": cty.StringVal("a"), "port_number": cty.NumberIntVal(443)}),
		},
		"Computed": {
			reason: "a computed value of any type is unknown",
			in:     resource.PropertyMap{"tags": resource.MakeComputed(resource.NewStringProperty("")), "rules": resource.MakeComputed(resource.NewStringProperty(""))},
			want:   obj(map[string]cty.Value{"tags": cty.UnknownVal(cty.Map(cty.String)), "rules": cty.UnknownVal(cty.List(ruleTy))}),
		},
		"Secret": {
			reason: "a secret input is marked sensitive",
			in:     resource.PropertyMap{"name": resource.MakeSecret(resource.NewStringProperty("s"))},
			want:   obj(map[string]cty.Value{"name": cty.StringVal("s").Mark(secret)}),
		},
		"SecretComputed": {
			reason: "a secret unknown stays both",
			in:     resource.PropertyMap{"name": resource.MakeSecret(resource.MakeComputed(resource.NewStringProperty("")))},
			want:   obj(map[string]cty.Value{"name": cty.UnknownVal(cty.String).Mark(secret)}),
		},
		"OutputUnknownSecret": {
			reason: "an unknown secret output value",
			in:     resource.PropertyMap{"name": resource.NewOutputProperty(resource.Output{Secret: true})},
			want:   obj(map[string]cty.Value{"name": cty.UnknownVal(cty.String).Mark(secret)}),
		},
		"OutputKnown": {
			reason: "a known output value is its element",
			in:     resource.PropertyMap{"name": resource.NewOutputProperty(resource.Output{Known: true, Element: resource.NewStringProperty("o")})},
			want:   obj(map[string]cty.Value{"name": cty.StringVal("o")}),
		},
		"Nested": {
			reason: "nested blocks and lists, null in a list element",
			in: resource.PropertyMap{"rules": resource.NewArrayProperty([]resource.PropertyValue{
				resource.NewObjectProperty(resource.PropertyMap{"fromPort": resource.NewNumberProperty(80)}),
				resource.NewObjectProperty(resource.PropertyMap{"fromPort": resource.NewNumberProperty(8080), "cidrBlocks": resource.NewArrayProperty(nil)}),
			})},
			want: obj(map[string]cty.Value{"rules": cty.ListVal([]cty.Value{
				rule(cty.NumberIntVal(80)),
				cty.ObjectVal(map[string]cty.Value{"from_port": cty.NumberIntVal(8080), "cidr_blocks": cty.ListValEmpty(cty.String)}),
			})}),
		},
		"MapKeysVerbatim": {
			reason: "map keys are the user's, not renamed",
			in:     resource.PropertyMap{"tags": resource.NewObjectProperty(resource.PropertyMap{"cost_center": resource.NewStringProperty("x")})},
			want:   obj(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"cost_center": cty.StringVal("x")})}),
		},
		"Set": {
			reason: "arrays become sets where the schema says set",
			in:     resource.PropertyMap{"zones": resource.NewArrayProperty([]resource.PropertyValue{resource.NewStringProperty("b"), resource.NewStringProperty("a")})},
			want:   obj(map[string]cty.Value{"zones": cty.SetVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})}),
		},
		"Dynamic": {
			reason: "dynamic values keep their natural shape and keys",
			in: resource.PropertyMap{"extra": resource.NewObjectProperty(resource.PropertyMap{
				"snake_key": resource.NewArrayProperty([]resource.PropertyValue{resource.NewNumberProperty(1), resource.NewStringProperty("x")}),
			})},
			want: obj(map[string]cty.Value{"extra": cty.ObjectVal(map[string]cty.Value{
				"snake_key": cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.StringVal("x")}),
			})}),
		},
		"StringToNumber": {
			reason: "cty's own conversions apply to primitives",
			in:     resource.PropertyMap{"portNumber": resource.NewStringProperty("22"), "name": resource.NewBoolProperty(true)},
			want:   obj(map[string]cty.Value{"port_number": cty.NumberIntVal(22), "name": cty.StringVal("true")}),
		},
		"ReferenceID": {
			reason: "a resource reference stands in as its ID",
			in: resource.PropertyMap{"name": resource.MakeCustomResourceReference(
				"urn:pulumi:dev::p::awscc:s3/bucket:Bucket::b", "bucket-1", "")},
			want: obj(map[string]cty.Value{"name": cty.StringVal("bucket-1")}),
		},
		"ReferenceEmptyID": {
			reason: "an empty ID is unknown",
			in: resource.PropertyMap{"name": resource.MakeCustomResourceReference(
				"urn:pulumi:dev::p::awscc:s3/bucket:Bucket::b", "", "")},
			want: obj(map[string]cty.Value{"name": cty.UnknownVal(cty.String)}),
		},
		"ReservedKeys": {
			reason: "Pulumi's __ keys are not attributes",
			in:     resource.PropertyMap{"__defaults": resource.NewArrayProperty(nil)},
			want:   obj(nil),
		},
		"WrongType": {
			reason:  "errors name the property path",
			in:      resource.PropertyMap{"rules": resource.NewArrayProperty([]resource.PropertyValue{resource.NewObjectProperty(resource.PropertyMap{"fromPort": resource.NewBoolProperty(true)})})},
			wantErr: "rules[0].fromPort: want a number, got a bool",
		},
		"UnknownKey": {
			reason:  "a key no attribute maps to",
			in:      resource.PropertyMap{"port_number": resource.NewNumberProperty(1)},
			wantErr: "port_number: unsupported property; this object has no such attribute",
		},
		"Asset": {
			reason:  "assets are refused",
			in:      resource.PropertyMap{"name": resource.NewAssetProperty(&resource.Asset{Text: "x"})},
			wantErr: "name: assets and archives are not supported; pass the content or a path as a string",
		},
		"NaN": {
			reason:  "NaN is no cty number",
			in:      resource.PropertyMap{"portNumber": resource.NewNumberProperty(math.NaN())},
			wantErr: "portNumber: want a finite number",
		},
		"NullInSet": {
			reason:  "cty sets hold no nulls",
			in:      resource.PropertyMap{"zones": resource.NewArrayProperty([]resource.PropertyValue{resource.NewNullProperty()})},
			wantErr: "zones[0]: a set cannot hold null",
		},
		"MapKeyPath": {
			reason:  "a map key that is not an identifier is quoted in the path",
			in:      resource.PropertyMap{"tags": resource.NewObjectProperty(resource.PropertyMap{"a b": resource.NewArrayProperty(nil)})},
			wantErr: `tags["a b"]: want a string, got an array`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := Converter{Block: testBlock()}.ToCty(tc.in)
			if tc.wantErr != "" {
				var pe *PathError
				if !errors.As(err, &pe) {
					t.Fatalf("%s: want a *PathError, got %v", tc.reason, err)
				}
				if diff := cmp.Diff(tc.wantErr, err.Error()); diff != "" {
					t.Errorf("%s: -want +got:\n%s", tc.reason, diff)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			if !got.RawEquals(tc.want) {
				t.Errorf("%s:\nwant %#v\ngot  %#v", tc.reason, tc.want, got)
			}
		})
	}
}

func TestToCtyReferenceURN(t *testing.T) {
	urn := resource.URN("urn:pulumi:dev::p::awscc:s3/bucket:Bucket::b")
	in := resource.PropertyMap{"name": resource.MakeCustomResourceReference(urn, "bucket-1", "")}
	got, err := Converter{Block: testBlock(), RefsAsURN: true}.ToCty(in)
	if err != nil {
		t.Fatal(err)
	}
	if want := cty.StringVal(string(urn)); !got.GetAttr("name").RawEquals(want) {
		t.Errorf("want %#v, got %#v", want, got.GetAttr("name"))
	}
}
