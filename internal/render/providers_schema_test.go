package render

import (
	"encoding/json"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/google/go-cmp/cmp"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/zclconf/go-cty/cty"
)

func TestProviderSchemasJSON(t *testing.T) {
	addr := addrs.NewDefaultProvider("test")
	one := func(s providers.GetProviderSchemaResponse) providers.Schemas { return providers.Schemas{addr: &s} }
	cases := map[string]struct {
		reason  string
		schemas providers.Schemas
		want    string
	}{
		"none": {
			reason:  "No providers is just the format version, as Terraform prints it.",
			schemas: providers.Schemas{},
			want:    `{"format_version":"1.0"}`,
		},
		"no config block": {
			reason: "A provider with no configuration block has no provider entry; attributes keep Terraform's field order.",
			schemas: one(providers.GetProviderSchemaResponse{ResourceTypes: map[string]providers.Schema{
				"test_a": {Version: 2, Block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
					"id":     {Type: cty.String, Computed: true},
					"secret": {Type: cty.String, Optional: true, Sensitive: true, Description: "shh"},
					"old":    {Type: cty.List(cty.Number), Optional: true, Deprecated: true},
					"wo":     {Type: cty.String, Optional: true, WriteOnly: true},
				}}},
			}}),
			want: `{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/test":{"resource_schemas":{"test_a":{"version":2,"block":{"attributes":{` +
				`"id":{"type":"string","description_kind":"plain","computed":true},` +
				`"old":{"type":["list","number"],"description_kind":"plain","deprecated":true,"optional":true},` +
				`"secret":{"type":"string","description":"shh","description_kind":"plain","optional":true,"sensitive":true},` +
				`"wo":{"type":"string","description_kind":"plain","optional":true,"write_only":true}},"description_kind":"plain"}}}}}}`,
		},
		"nesting": {
			reason: "Nested attributes and blocks keep their nesting modes and item limits.",
			schemas: one(providers.GetProviderSchemaResponse{
				Provider: providers.Schema{Block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
					"region": {Type: cty.String, Optional: true},
				}}},
				DataSources: map[string]providers.Schema{"test_d": {Block: &configschema.Block{
					Attributes: map[string]*configschema.Attribute{
						"rules": {Optional: true, NestedType: &configschema.Object{Nesting: configschema.NestingSet, Attributes: map[string]*configschema.Attribute{
							"port": {Type: cty.Number, Required: true},
						}}},
					},
					BlockTypes: map[string]*configschema.NestedBlock{
						"timeouts": {Nesting: configschema.NestingSingle},
						"filter":   {Nesting: configschema.NestingList, MinItems: 1, MaxItems: 2, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{"name": {Type: cty.String, Required: true}}}},
					},
				}}},
			}),
			want: `{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/test":{` +
				`"provider":{"version":0,"block":{"attributes":{"region":{"type":"string","description_kind":"plain","optional":true}},"description_kind":"plain"}},` +
				`"data_source_schemas":{"test_d":{"version":0,"block":{` +
				`"attributes":{"rules":{"nested_type":{"attributes":{"port":{"type":"number","description_kind":"plain","required":true}},"nesting_mode":"set"},"description_kind":"plain","optional":true}},` +
				`"block_types":{"filter":{"nesting_mode":"list","block":{"attributes":{"name":{"type":"string","description_kind":"plain","required":true}},"description_kind":"plain"},"min_items":1,"max_items":2},` +
				`"timeouts":{"nesting_mode":"single","block":{"description_kind":"plain"}}},"description_kind":"plain"}}}}}}`,
		},
		"functions": {
			reason: "Provider-defined functions are listed as Terraform 1.8+ lists them: parameters in order, is_nullable only where set.",
			schemas: one(providers.GetProviderSchemaResponse{Functions: map[string]providers.Function{
				"join": {
					Summary: "Joins", Description: "Joins parts.", Return: cty.String,
					Parameters:        []providers.FunctionParameter{{Name: "sep", Type: cty.String, AllowNullValue: true}},
					VariadicParameter: &providers.FunctionParameter{Name: "parts", Type: cty.List(cty.String), Description: "each part"},
				},
			}}),
			want: `{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/test":{"functions":{"join":{` +
				`"description":"Joins parts.","summary":"Joins","return_type":"string",` +
				`"parameters":[{"name":"sep","is_nullable":true,"type":"string"}],` +
				`"variadic_parameter":{"name":"parts","description":"each part","type":["list","string"]}}}}}}`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := json.Marshal(ProviderSchemasJSON(tc.schemas))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("%s\n(-want +got):\n%s", tc.reason, diff)
			}
			var back tfjson.ProviderSchemas
			if err := json.Unmarshal(got, &back); err != nil {
				t.Errorf("terraform-json cannot read the document: %v", err)
			}
		})
	}
}
