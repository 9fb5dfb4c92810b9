package eval

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/lang/funcs"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/namedvals"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// TestProviderInstanceKey: the key of a provider reference is known,
// neither null, sensitive nor ephemeral, and becomes a string key whatever
// its primitive type, as in OpenTofu 1.12.6.
func TestProviderInstanceKey(t *testing.T) {
	vars := expandVars()
	vars["ephemeral_s"] = cty.StringVal("e").Mark(marks.Ephemeral)
	cases := map[string]struct {
		reason    string
		expr      string
		want      addrs.InstanceKey
		wantDiags []diagView
	}{
		"Literal":   {expr: `"us"`, want: addrs.StringKey("us")},
		"Each":      {reason: "each.key of the resource instance", expr: `each.key`, want: addrs.StringKey("k1")},
		"Number":    {reason: "a number becomes its string, as OpenTofu converts it", expr: `var.n`, want: addrs.StringKey("2")},
		"Bool":      {expr: `true`, want: addrs.StringKey("true")},
		"Unknown":   {expr: `var.unknown_s`, wantDiags: []diagView{errAt("Invalid provider instance key", "main.tf:1:1")}},
		"Null":      {expr: `null`, wantDiags: []diagView{errAt("Invalid provider instance key", "main.tf:1:1")}},
		"Sensitive": {expr: `var.secret_key`, wantDiags: []diagView{errAt("Invalid provider instance key", "main.tf:1:1")}},
		"Ephemeral": {expr: `var.ephemeral_s`, wantDiags: []diagView{errAt("Invalid provider instance key", "main.tf:1:1")}},
		"List":      {reason: "a collection is no key", expr: `["a"]`, wantDiags: []diagView{errAt("Invalid provider instance key", "main.tf:1:1")}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			expr, ds := hclsyntax.ParseExpression([]byte(tc.expr), "main.tf", hcl.InitialPos)
			if ds.HasErrors() {
				t.Fatal(ds.Error())
			}
			scope := &lang.Scope{Data: namedvals.New(vars).Data(addrs.RootModuleInstance), Funcs: funcs.Table(".")}
			scope.Repetition.EachKey, scope.Repetition.EachValue = cty.StringVal("k1"), cty.StringVal("v1")
			got, kds := ProviderInstanceKey(scope, expr, "aws_x.y")
			if diff := cmp.Diff(tc.wantDiags, viewDiags(kds)); diff != "" {
				t.Errorf("%s\ndiagnostics: -want +got:\n%s", tc.reason, diff)
			}
			if got != tc.want {
				t.Errorf("%s\nkey: want %#v, got %#v", tc.reason, tc.want, got)
			}
		})
	}
}

// TestStaticRefs: a provider's for_each may refer to variables, path,
// terraform and locals built only from them; a resource, directly or
// through a local, is OpenTofu's "Dynamic value in static context" at the
// reference, plus "Unable to compute static value" where the local is
// used; a module output has its own summary. Cycles between locals are
// left to evaluation.
func TestStaticRefs(t *testing.T) {
	const locals = `
locals {
  ok    = { a = var.x, b = path.module, c = terraform.workspace }
  dyn   = { a = terraform_data.d.id }
  outer = local.dyn
  loop1 = local.loop2
  loop2 = local.loop1
}
resource "terraform_data" "d" {}
`
	cases := map[string]struct {
		expr      string
		wantDiags []diagView
	}{
		"Variable":  {expr: `var.x`},
		"Local":     {expr: `local.ok`},
		"Functions": {expr: `toset(keys(local.ok))`},
		"Resource":  {expr: `{ a = terraform_data.d.id }`, wantDiags: []diagView{errAt("Dynamic value in static context", "expr.tf:1:7")}},
		"DynamicLocal": {expr: `local.dyn`, wantDiags: []diagView{
			errAt("Dynamic value in static context", "main.tf:4:17"),
			errAt("Unable to compute static value", "expr.tf:1:1"),
		}},
		"Nested": {expr: `local.outer`, wantDiags: []diagView{
			errAt("Dynamic value in static context", "main.tf:4:17"),
			errAt("Unable to compute static value", "main.tf:5:11"),
			errAt("Unable to compute static value", "expr.tf:1:1"),
		}},
		"ModuleOutput": {expr: `module.m.out`, wantDiags: []diagView{errAt("Module output not supported in static context", "expr.tf:1:1")}},
		"Cycle":        {expr: `local.loop1`},
	}
	mod := loadModule(t, locals)
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			expr, ds := hclsyntax.ParseExpression([]byte(tc.expr), "expr.tf", hcl.InitialPos)
			if ds.HasErrors() {
				t.Fatal(ds.Error())
			}
			got := StaticRefs(mod, "provider.aws.r.for_each", expr)
			if diff := cmp.Diff(tc.wantDiags, viewDiags(got)); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}
