package planning

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/instances"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// TestOrphanReason pins why an instance the expansion no longer has is
// deleted, as Terraform words it.
func TestOrphanReason(t *testing.T) {
	tests := []struct {
		name string
		exp  *instances.Expansion
		key  addrs.InstanceKey
		want plans.ActionReason
	}{
		{"index past count", instances.CountExpansion(1), addrs.IntKey(3), plans.ReasonDeleteBecauseCountIndex},
		{"key not in for_each", instances.ForEachExpansion(map[string]cty.Value{"a": cty.True}), addrs.StringKey("b"), plans.ReasonDeleteBecauseEachKey},
		{"no key under count", instances.CountExpansion(1), addrs.NoKey, plans.ReasonDeleteBecauseWrongRepetition},
		{"index under for_each", instances.ForEachExpansion(nil), addrs.IntKey(0), plans.ReasonDeleteBecauseWrongRepetition},
		{"key without repetition", instances.SingleExpansion(), addrs.StringKey("a"), plans.ReasonDeleteBecauseWrongRepetition},
	}
	for _, tc := range tests {
		if got := orphanReason(tc.exp, tc.key); got != tc.want {
			t.Errorf("%s: reason %v, want %v", tc.name, got.JSON(), tc.want.JSON())
		}
	}
}

// TestResourceDependencies pins what state records as an object's
// dependencies: every resource reached through any path (locals, module
// inputs and outputs, other resources), sorted, with module paths and no
// instance keys, as Terraform 1.5.7 recorded them for the same
// configuration.
func TestResourceDependencies(t *testing.T) {
	files := map[string][]byte{
		"main.tf": []byte(`
resource "terraform_data" "a" { input = 1 }
locals { x = terraform_data.a.id }
resource "terraform_data" "b" { input = local.x }
resource "terraform_data" "c" { input = terraform_data.b.id }
module "m" {
  source = "./m"
  count  = 2
  in     = terraform_data.c.id
}
resource "terraform_data" "d" { input = module.m[0].out }
resource "terraform_data" "e" { depends_on = [module.m] }
`),
		"m/main.tf": []byte(`
variable "in" {}
resource "terraform_data" "x" { input = var.in }
output "out" { value = terraform_data.x.id }
`),
	}
	cfg, ds := configs.LoadFiles(".", files)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	schema := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"input": {Type: cty.DynamicPseudoType, Optional: true}, "id": {Type: cty.String, Computed: true},
	}}
	schemas := providers.Schemas{addrs.NewBuiltInProvider("terraform"): {
		ResourceTypes: map[string]providers.Schema{"terraform_data": {Block: schema}},
	}}
	cg, ds := buildConfigGraph(cfg, nil, schemas, func(r *configs.Resource, s *configschema.Block) *lang.PreparedBlock {
		return lang.PrepareBlock(r.Config, s)
	})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	got := map[string][]string{}
	for i, v := range cg.vertices {
		if v.kind != vResource {
			continue
		}
		var deps []string
		for _, d := range cg.resourceDeps[i] {
			deps = append(deps, d.String())
		}
		got[v.resource.Addr().InModule(v.module).String()] = deps
	}
	want := map[string][]string{
		"terraform_data.a":          nil,
		"terraform_data.b":          {"terraform_data.a"},
		"terraform_data.c":          {"terraform_data.a", "terraform_data.b"},
		"module.m.terraform_data.x": {"terraform_data.a", "terraform_data.b", "terraform_data.c"},
		"terraform_data.d":          {"module.m.terraform_data.x", "terraform_data.a", "terraform_data.b", "terraform_data.c"},
		"terraform_data.e":          {"module.m.terraform_data.x", "terraform_data.a", "terraform_data.b", "terraform_data.c"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("dependencies -want +got:\n%s", diff)
	}
}

// TestTriggerKey pins how replace_triggered_by's index expressions are
// evaluated: with only count and each in scope, and refused when not
// known.
func TestTriggerKey(t *testing.T) {
	parse := func(s string) hcl.Expression {
		e, ds := hclsyntax.ParseExpression([]byte(s), "x.tf", hcl.InitialPos)
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		return e
	}
	tests := []struct {
		expr    string
		rep     lang.Repetition
		want    cty.Value
		wantErr bool
	}{
		{"count.index", lang.Repetition{CountIndex: cty.NumberIntVal(2)}, cty.NumberIntVal(2), false},
		{"each.key", lang.Repetition{EachKey: cty.StringVal("k"), EachValue: cty.True}, cty.StringVal("k"), false},
		{"count.index + 1", lang.Repetition{CountIndex: cty.NumberIntVal(2)}, cty.NumberIntVal(3), false},
		{"each.value", lang.Repetition{EachKey: cty.StringVal("k"), EachValue: cty.UnknownVal(cty.String)}, cty.NilVal, true},
		{"var.x", lang.Repetition{}, cty.NilVal, true},
	}
	for _, tc := range tests {
		got, ds := triggerKey(parse(tc.expr), tc.rep)
		if ds.HasErrors() != tc.wantErr {
			t.Errorf("%s: errors %v, want error %t", tc.expr, ds, tc.wantErr)
			continue
		}
		if !tc.wantErr && !got.RawEquals(tc.want) {
			t.Errorf("%s = %#v, want %#v", tc.expr, got, tc.want)
		}
	}
}
