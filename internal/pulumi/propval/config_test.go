package propval

import (
	"errors"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/configschema"
)

// providerBlock is a provider configuration of every shape.
func providerBlock() *configschema.Block {
	return &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"region":              {Type: cty.String, Optional: true},
			"max_retries":         {Type: cty.Number, Optional: true},
			"skip_checks":         {Type: cty.Bool, Optional: true},
			"allowed_account_ids": {Type: cty.List(cty.String), Optional: true},
			"default_tags":        {Type: cty.Map(cty.String), Optional: true},
			"extra":               {Type: cty.DynamicPseudoType, Optional: true},
			"endpoints": {Optional: true, NestedType: &configschema.Object{Nesting: configschema.NestingSingle,
				Attributes: map[string]*configschema.Attribute{"cloudcontrolapi": {Type: cty.String, Optional: true}}}},
		},
		BlockTypes: map[string]*configschema.NestedBlock{
			"assume_role": {Nesting: configschema.NestingList, Block: configschema.Block{
				Attributes: map[string]*configschema.Attribute{"role_arn": {Type: cty.String, Optional: true}}}},
		},
	}
}

const secretSig = `{"4dabf18193072939515e22adb298388d":"1b47061264138c4ac30d75fd1eb44270","value":`

// TestDecodeConfig: configuration that is not a string arrives as JSON in
// a string, as the Pulumi engine sends stack configuration, and reads as
// the value it encodes; secrets stay secret.
func TestDecodeConfig(t *testing.T) {
	endpoints := func(v cty.Value) cty.Value { return cty.ObjectVal(map[string]cty.Value{"cloudcontrolapi": v}) }
	cases := map[string]struct {
		reason string
		key    string
		in     resource.PropertyValue
		want   cty.Value
	}{
		"object": {"An object setting (awscc:endpoints) comes as JSON.",
			"endpoints", resource.NewProperty(`{"cloudcontrolapi":"http://127.0.0.1:4566"}`), endpoints(cty.StringVal("http://127.0.0.1:4566"))},
		"secret object": {"A secret setting stays secret once decoded.",
			"endpoints", resource.MakeSecret(resource.NewProperty(`{"cloudcontrolapi":"http://x"}`)), endpoints(cty.StringVal("http://x")).Mark(configschema.SensitiveMark)},
		"secret inside": {"A secret inside the object is Pulumi's signed object in the JSON.",
			"endpoints", resource.NewProperty(`{"cloudcontrolapi":` + secretSig + `"http://x"}}`), endpoints(cty.StringVal("http://x").Mark(configschema.SensitiveMark))},
		"list": {"A list comes as a JSON array.",
			"allowedAccountIds", resource.NewProperty(`["1","2"]`), cty.ListVal([]cty.Value{cty.StringVal("1"), cty.StringVal("2")})},
		"map": {"A map comes as a JSON object.",
			"defaultTags", resource.NewProperty(`{"team":"a"}`), cty.MapVal(map[string]cty.Value{"team": cty.StringVal("a")})},
		"block": {"A nested block comes as a JSON array of objects.",
			"assumeRole", resource.NewProperty(`[{"roleArn":"arn:aws:iam::1:role/r"}]`), cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"role_arn": cty.StringVal("arn:aws:iam::1:role/r")})})},
		"number": {"A number comes as its string form.",
			"maxRetries", resource.NewProperty("5"), cty.NumberIntVal(5)},
		"bool": {"A bool comes as its string form.",
			"skipChecks", resource.NewProperty("true"), cty.True},
		"empty object": {"An empty string is the type's zero value, as bridged providers read it.",
			"endpoints", resource.NewProperty(""), endpoints(cty.NullVal(cty.String))},
		"empty number": {"An empty string is the type's zero value.",
			"maxRetries", resource.NewProperty(""), cty.Zero},
		"string": {"A string setting is taken as it is, JSON or not.",
			"region", resource.NewProperty(`"quoted"`), cty.StringVal(`"quoted"`)},
		"dynamic": {"A dynamic setting may be a string of its own.",
			"extra", resource.NewProperty(`{"a":1}`), cty.StringVal(`{"a":1}`)},
		"object already": {"A provider resource's inputs come as objects.",
			"endpoints", resource.NewProperty(resource.PropertyMap{"cloudcontrolapi": resource.NewProperty("http://y")}), endpoints(cty.StringVal("http://y"))},
		"unknown": {"An unknown stays unknown.",
			"endpoints", resource.MakeComputed(resource.NewProperty("")), cty.UnknownVal(cty.Object(map[string]cty.Type{"cloudcontrolapi": cty.String}))},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := Converter{Block: providerBlock()}
			pm, err := c.DecodeConfig(resource.PropertyMap{resource.PropertyKey(tc.key): tc.in})
			if err != nil {
				t.Fatalf("%s\nDecodeConfig: %v", tc.reason, err)
			}
			v, err := c.ToCty(pm)
			if err != nil {
				t.Fatalf("%s\nToCty: %v", tc.reason, err)
			}
			attr := tc.key
			for name := range providerBlock().ImpliedType().AttributeTypes() {
				if PropertyKey(name) == resource.PropertyKey(tc.key) {
					attr = name
				}
			}
			if got := v.GetAttr(attr); !got.RawEquals(tc.want) {
				t.Errorf("%s\ngot  %#v\nwant %#v", tc.reason, got, tc.want)
			}
		})
	}
}

// TestDecodeConfigNotJSON: a setting that should be JSON and is not is an
// error at its property that does not repeat the value.
func TestDecodeConfigNotJSON(t *testing.T) {
	c := Converter{Block: providerBlock()}
	_, err := c.DecodeConfig(resource.PropertyMap{"endpoints": resource.MakeSecret(resource.NewProperty("{hunter2"))})
	var pe *PathError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v, want a *PathError", err)
	}
	if pe.Path.String() != "endpoints" || !strings.Contains(pe.Msg, "want an object, got a string that is not JSON") {
		t.Errorf("error %q at %q", pe.Msg, pe.Path.String())
	}
	if strings.Contains(err.Error(), "hunter2") {
		t.Errorf("the error repeats the secret value: %v", err)
	}
}
