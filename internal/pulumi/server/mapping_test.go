package server

import (
	"encoding/json"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/configschema"
)

// TestMappingShapes: nested blocks and attributes take their SDKv2 form
// in the mapping, and the converter is told which blocks are objects
// (maxItemsOne true) and which lists of at most one stay lists (false),
// since Cairn's schema keeps Terraform's nesting rather than guessing
// from MaxItems.
func TestMappingShapes(t *testing.T) {
	port := map[string]*configschema.Attribute{"port": {Type: cty.Number, Required: true}}
	inner := func() configschema.Block { return configschema.Block{Attributes: port} }
	b := &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"name":   {Type: cty.String, Required: true},
			"tags":   {Type: cty.Map(cty.String), Optional: true},
			"ids":    {Type: cty.Set(cty.String), Computed: true},
			"shape":  {Type: cty.Object(map[string]cty.Type{"w": cty.Number}), Optional: true},
			"config": {NestedType: &configschema.Object{Nesting: configschema.NestingSingle, Attributes: port}, Optional: true},
			"rules":  {NestedType: &configschema.Object{Nesting: configschema.NestingList, Attributes: port}, Optional: true},
		},
		BlockTypes: map[string]*configschema.NestedBlock{
			"timeouts": {Nesting: configschema.NestingSingle, Block: inner()},
			"listener": {Nesting: configschema.NestingList, MaxItems: 1, Block: inner()},
			"rule":     {Nesting: configschema.NestingSet, MinItems: 1, Block: inner()},
			"by_name":  {Nesting: configschema.NestingMap, Block: inner()},
		},
	}
	cases := map[string]string{
		"name":     `{"type":4,"required":true}`,
		"tags":     `{"type":6,"optional":true,"element":{"schema":{"type":4}}}`,
		"ids":      `{"type":7,"computed":true,"element":{"schema":{"type":4}}}`,
		"shape":    `{"type":6,"optional":true,"element":{"resource":{"w":{"type":3,"optional":true}}}}`,
		"config":   `{"type":6,"optional":true,"element":{"resource":{"port":{"type":3,"required":true}}}}`,
		"rules":    `{"type":5,"optional":true,"element":{"resource":{"port":{"type":3,"required":true}}}}`,
		"timeouts": `{"type":5,"optional":true,"element":{"resource":{"port":{"type":3,"required":true}}},"maxItems":1}`,
		"listener": `{"type":5,"optional":true,"element":{"resource":{"port":{"type":3,"required":true}}},"maxItems":1}`,
		"rule":     `{"type":7,"required":true,"element":{"resource":{"port":{"type":3,"required":true}}},"minItems":1}`,
		"by_name":  `{"type":6,"optional":true,"element":{"resource":{"port":{"type":3,"required":true}}}}`,
	}
	got := tfBlock(b)
	for name, want := range cases {
		data, _ := json.Marshal(got[name])
		if string(data) != want {
			t.Errorf("%s: got %s, want %s", name, data, want)
		}
	}
	fields, _ := json.Marshal(fieldInfos(b))
	if want := `{"listener":{"maxItemsOne":false},"timeouts":{"maxItemsOne":true}}`; string(fields) != want {
		t.Errorf("fields: got %s, want %s", fields, want)
	}
}
