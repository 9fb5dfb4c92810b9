package tfproto6

import (
	"context"
	"testing"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/zclconf/go-cty/cty"
)

// schemaOpts compares configschema values: types by equality, caches
// ignored.
var schemaOpts = cmp.Options{
	cmp.Comparer(func(a, b cty.Type) bool { return a.Equals(b) }),
	cmpopts.IgnoreUnexported(configschema.Block{}),
}

func TestConvertSchema(t *testing.T) {
	str := &tfprotov6.SchemaAttribute{Name: "s", Type: tftypes.String, Optional: true}
	cases := map[string]struct {
		reason  string
		in      *tfprotov6.Schema
		want    providers.Schema
		wantErr bool
	}{
		"types": {
			reason: "Every tftypes type has its cty twin, optional object attributes included.",
			in: &tfprotov6.Schema{Version: 3, Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{
				{Name: "b", Type: tftypes.Bool, Optional: true},
				{Name: "n", Type: tftypes.Number, Optional: true},
				{Name: "d", Type: tftypes.DynamicPseudoType, Optional: true},
				{Name: "l", Type: tftypes.List{ElementType: tftypes.String}, Optional: true},
				{Name: "st", Type: tftypes.Set{ElementType: tftypes.Number}, Optional: true},
				{Name: "m", Type: tftypes.Map{ElementType: tftypes.Bool}, Optional: true},
				{Name: "t", Type: tftypes.Tuple{ElementTypes: []tftypes.Type{tftypes.String, tftypes.Number}}, Optional: true},
				{Name: "o", Type: tftypes.Object{
					AttributeTypes:     map[string]tftypes.Type{"x": tftypes.String, "y": tftypes.List{ElementType: tftypes.Number}},
					OptionalAttributes: map[string]struct{}{"y": {}},
				}, Optional: true},
			}}},
			want: providers.Schema{Version: 3, Block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
				"b":  {Type: cty.Bool, Optional: true},
				"n":  {Type: cty.Number, Optional: true},
				"d":  {Type: cty.DynamicPseudoType, Optional: true},
				"l":  {Type: cty.List(cty.String), Optional: true},
				"st": {Type: cty.Set(cty.Number), Optional: true},
				"m":  {Type: cty.Map(cty.Bool), Optional: true},
				"t":  {Type: cty.Tuple([]cty.Type{cty.String, cty.Number}), Optional: true},
				"o": {Type: cty.ObjectWithOptionalAttrs(map[string]cty.Type{"x": cty.String, "y": cty.List(cty.Number)}, []string{"y"}),
					Optional: true},
			}}},
		},
		"flags": {
			reason: "Every flag and description crosses.",
			in: &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{Description: "blk", Deprecated: true, Attributes: []*tfprotov6.SchemaAttribute{
				{Name: "r", Type: tftypes.String, Required: true, Description: "req"},
				{Name: "oc", Type: tftypes.String, Optional: true, Computed: true, Sensitive: true},
				{Name: "c", Type: tftypes.String, Computed: true, Deprecated: true},
				{Name: "w", Type: tftypes.String, Optional: true, WriteOnly: true},
			}}},
			want: providers.Schema{Block: &configschema.Block{Description: "blk", Deprecated: true, Attributes: map[string]*configschema.Attribute{
				"r":  {Type: cty.String, Required: true, Description: "req"},
				"oc": {Type: cty.String, Optional: true, Computed: true, Sensitive: true},
				"c":  {Type: cty.String, Computed: true, Deprecated: true},
				"w":  {Type: cty.String, Optional: true, WriteOnly: true},
			}}},
		},
		"nested attributes": {
			reason: "Nested attribute types keep their nesting mode, down to any depth.",
			in: &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{
				{Name: "single", Optional: true, NestedType: &tfprotov6.SchemaObject{Nesting: tfprotov6.SchemaObjectNestingModeSingle, Attributes: []*tfprotov6.SchemaAttribute{str}}},
				{Name: "list", Optional: true, NestedType: &tfprotov6.SchemaObject{Nesting: tfprotov6.SchemaObjectNestingModeList, Attributes: []*tfprotov6.SchemaAttribute{str}}},
				{Name: "set", Computed: true, NestedType: &tfprotov6.SchemaObject{Nesting: tfprotov6.SchemaObjectNestingModeSet, Attributes: []*tfprotov6.SchemaAttribute{str}}},
				{Name: "map", Required: true, NestedType: &tfprotov6.SchemaObject{Nesting: tfprotov6.SchemaObjectNestingModeMap, Attributes: []*tfprotov6.SchemaAttribute{
					{Name: "inner", Optional: true, NestedType: &tfprotov6.SchemaObject{Nesting: tfprotov6.SchemaObjectNestingModeList, Attributes: []*tfprotov6.SchemaAttribute{str}}},
				}}},
			}}},
			want: providers.Schema{Block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
				"single": {Optional: true, NestedType: &configschema.Object{Nesting: configschema.NestingSingle, Attributes: map[string]*configschema.Attribute{"s": {Type: cty.String, Optional: true}}}},
				"list":   {Optional: true, NestedType: &configschema.Object{Nesting: configschema.NestingList, Attributes: map[string]*configschema.Attribute{"s": {Type: cty.String, Optional: true}}}},
				"set":    {Computed: true, NestedType: &configschema.Object{Nesting: configschema.NestingSet, Attributes: map[string]*configschema.Attribute{"s": {Type: cty.String, Optional: true}}}},
				"map": {Required: true, NestedType: &configschema.Object{Nesting: configschema.NestingMap, Attributes: map[string]*configschema.Attribute{
					"inner": {Optional: true, NestedType: &configschema.Object{Nesting: configschema.NestingList, Attributes: map[string]*configschema.Attribute{"s": {Type: cty.String, Optional: true}}}},
				}}},
			}}},
		},
		"nested blocks": {
			reason: "Blocks keep nesting mode and item limits.",
			in: &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{BlockTypes: []*tfprotov6.SchemaNestedBlock{
				{TypeName: "single", Nesting: tfprotov6.SchemaNestedBlockNestingModeSingle, Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{str}}},
				{TypeName: "group", Nesting: tfprotov6.SchemaNestedBlockNestingModeGroup, Block: &tfprotov6.SchemaBlock{}},
				{TypeName: "list", Nesting: tfprotov6.SchemaNestedBlockNestingModeList, MinItems: 1, MaxItems: 3, Block: &tfprotov6.SchemaBlock{
					BlockTypes: []*tfprotov6.SchemaNestedBlock{{TypeName: "deep", Nesting: tfprotov6.SchemaNestedBlockNestingModeSet, Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{str}}}},
				}},
				{TypeName: "set", Nesting: tfprotov6.SchemaNestedBlockNestingModeSet, MaxItems: 2, Block: &tfprotov6.SchemaBlock{}},
				{TypeName: "map", Nesting: tfprotov6.SchemaNestedBlockNestingModeMap, Block: &tfprotov6.SchemaBlock{}},
			}}},
			want: providers.Schema{Block: &configschema.Block{BlockTypes: map[string]*configschema.NestedBlock{
				"single": {Nesting: configschema.NestingSingle, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{"s": {Type: cty.String, Optional: true}}}},
				"group":  {Nesting: configschema.NestingGroup},
				"list": {Nesting: configschema.NestingList, MinItems: 1, MaxItems: 3, Block: configschema.Block{BlockTypes: map[string]*configschema.NestedBlock{
					"deep": {Nesting: configschema.NestingSet, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{"s": {Type: cty.String, Optional: true}}}},
				}}},
				"set": {Nesting: configschema.NestingSet, MaxItems: 2},
				"map": {Nesting: configschema.NestingMap},
			}}},
		},
		"invalid nesting": {
			reason:  "A nesting mode the protocol calls invalid is refused.",
			in:      &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{BlockTypes: []*tfprotov6.SchemaNestedBlock{{TypeName: "x", Block: &tfprotov6.SchemaBlock{}}}}},
			wantErr: true,
		},
		"missing type": {
			reason:  "An attribute with neither a type nor a nested type is refused.",
			in:      &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{{Name: "x", Optional: true}}}},
			wantErr: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := convertSchema(tc.in, true)
			if (err != nil) != tc.wantErr {
				t.Fatalf("%s\nerror %v, want error %v", tc.reason, err, tc.wantErr)
			}
			if tc.wantErr {
				return
			}
			if diff := cmp.Diff(tc.want, got, schemaOpts); diff != "" {
				t.Errorf("%s\n(-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

// TestFrameworkSchema checks the schema a real framework provider serves,
// nested attributes and blocks included, and that the answer's broken
// parts are reported without losing the rest.
func TestFrameworkSchema(t *testing.T) {
	resp := New(newTestServer()).GetProviderSchema(context.Background())
	if len(resp.Diagnostics) > 0 {
		t.Fatalf("diagnostics: %v", resp.Diagnostics)
	}
	thing := resp.ResourceTypes["test_thing"]
	if thing.Version != 1 {
		t.Errorf("test_thing version %d, want 1", thing.Version)
	}
	want := map[string]*configschema.Attribute{
		"rules": {Optional: true, NestedType: &configschema.Object{Nesting: configschema.NestingList, Attributes: map[string]*configschema.Attribute{
			"port":  {Type: cty.Number, Required: true},
			"proto": {Type: cty.String, Optional: true, Computed: true},
		}}},
		"labels": {Optional: true, NestedType: &configschema.Object{Nesting: configschema.NestingSet, Attributes: map[string]*configschema.Attribute{
			"key": {Type: cty.String, Required: true},
		}}},
		"secret": {Type: cty.String, Optional: true, Sensitive: true},
		"tags":   {Type: cty.Map(cty.String), Optional: true},
		"id":     {Type: cty.String, Computed: true},
	}
	for name, w := range want {
		if diff := cmp.Diff(w, thing.Block.Attributes[name], schemaOpts); diff != "" {
			t.Errorf("attribute %s (-want +got):\n%s", name, diff)
		}
	}
	if nb := thing.Block.BlockTypes["setting"]; nb == nil || nb.Nesting != configschema.NestingList {
		t.Errorf("block setting: %+v, want a list block", nb)
	}
	if a := resp.Provider.Block.Attributes["endpoint"]; a == nil || !a.Optional || a.Description != "Where the things live." {
		t.Errorf("provider attribute endpoint: %+v", a)
	}
	if _, ok := resp.DataSources["test_lookup"]; !ok {
		t.Errorf("data source test_lookup missing")
	}
	if resp.ProviderMeta.Block != nil {
		t.Errorf("provider_meta: %+v, want none", resp.ProviderMeta.Block)
	}
}

func TestConvertProviderSchemaKeepsGoodTypes(t *testing.T) {
	got := convertProviderSchema(&tfprotov6.GetProviderSchemaResponse{
		ServerCapabilities: &tfprotov6.ServerCapabilities{PlanDestroy: true},
		Provider:           &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{}},
		ResourceSchemas: map[string]*tfprotov6.Schema{
			"good": {Block: &tfprotov6.SchemaBlock{}},
			"bad":  {Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{{Name: "x"}}}},
		},
	})
	if !got.PlanDestroy {
		t.Errorf("PlanDestroy lost")
	}
	if _, ok := got.ResourceTypes["good"]; !ok {
		t.Errorf("good type lost")
	}
	if _, ok := got.ResourceTypes["bad"]; ok {
		t.Errorf("bad type kept")
	}
	if len(got.Diagnostics) != 1 || !got.Diagnostics.HasErrors() {
		t.Errorf("diagnostics %v, want one error", got.Diagnostics)
	}
}
