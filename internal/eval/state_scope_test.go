package eval

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
)

const stateScopeConfig = `
locals {
  b = local.a + 1
  a = 41
  c = 1 + "x"
}
resource "terraform_data" "one" {}
resource "terraform_data" "many" {
  count = 3
}
resource "terraform_data" "keyed" {
  for_each = {}
}
resource "terraform_data" "absent" {}
`

// TestStateScope evaluates expressions against a state holding some of
// the configuration's resources, as the console does.
func TestStateScope(t *testing.T) {
	cfg := loadModule(t, stateScopeConfig)
	tp := addrs.NewBuiltInProvider("terraform")
	schema := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"id":     {Type: cty.String, Computed: true},
		"secret": {Type: cty.String, Optional: true, Sensitive: true},
	}}
	schemas := providers.Schemas{tp: {ResourceTypes: map[string]providers.Schema{"terraform_data": {Block: schema}}}}
	st := states.NewState()
	put := func(name string, key addrs.InstanceKey, id string) {
		addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: name}.Instance(key).Absolute(addrs.RootModuleInstance)
		src := &states.ObjectSrc{AttrsJSON: []byte(`{"id":"` + id + `","secret":"s"}`), Status: states.ObjectReady}
		st.SetResourceInstanceCurrent(addr, src, addrs.AbsProviderConfig{Provider: tp})
	}
	put("one", addrs.NoKey, "i1")
	put("many", addrs.IntKey(0), "m0")
	put("many", addrs.IntKey(2), "m2")

	scope, ds := StateScope(StateScopeOptions{Config: cfg, State: st, Schemas: schemas, Variables: map[string]cty.Value{}, Workspace: "default"})
	if diff := cmp.Diff([]diagView{errAt("Invalid operand", "main.tf:5:11")}, viewDiags(ds)); diff != "" {
		t.Fatalf("a failing local is reported once, the rest evaluate (-want +got):\n%s", diff)
	}
	tests := map[string]struct {
		reason string
		expr   string
		want   cty.Value
		diags  []diagView
	}{
		"locals in dependency order": {reason: "b needs a, declared after it", expr: "local.b", want: cty.NumberIntVal(42)},
		"failed local":               {reason: "a local that failed is unknown", expr: "local.c", want: cty.DynamicVal},
		"single":                     {reason: "a single instance from state", expr: "terraform_data.one.id", want: cty.StringVal("i1")},
		"schema sensitive":           {reason: "schema-sensitive attributes are marked", expr: "terraform_data.one.secret", want: cty.StringVal("s").Mark(configschema.SensitiveMark)},
		"count gap": {reason: "a tuple to the highest index, gaps unknown", expr: "[for m in terraform_data.many : m.id]",
			want: cty.TupleVal([]cty.Value{cty.StringVal("m0"), cty.UnknownVal(cty.String), cty.StringVal("m2")})},
		"absent":    {reason: "a resource not in state is unknown", expr: "terraform_data.absent", want: cty.DynamicVal},
		"workspace": {reason: "terraform.workspace", expr: "terraform.workspace", want: cty.StringVal("default")},
		"undeclared": {reason: "resources outside the configuration are errors", expr: "terraform_data.nope",
			want: cty.DynamicVal, diags: []diagView{errAt("Reference to undeclared resource", "x:1:1")}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			expr, hd := hclsyntax.ParseExpression([]byte(tc.expr), "x", hcl.InitialPos)
			if hd.HasErrors() {
				t.Fatal(hd.Error())
			}
			got, ds := scope.EvalExpr(expr, cty.DynamicPseudoType)
			if diff := cmp.Diff(tc.diags, viewDiags(ds)); diff != "" {
				t.Errorf("%s: diagnostics (-want +got):\n%s", tc.reason, diff)
			}
			if !ds.HasErrors() {
				if diff := cmp.Diff(tc.want, got, ctyOpts); diff != "" {
					t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
				}
			}
		})
	}
}

// TestFinalizeVariablesAllowUnset: the console evaluates with required
// variables unset; they are unknown (sensitive ones stay marked) instead
// of errors.
func TestFinalizeVariablesAllowUnset(t *testing.T) {
	cfg := loadModule(t, `
variable "req" {
  type = number
}
variable "hidden" {
  type      = string
  sensitive = true
}
variable "given" {}
`)
	got, ds := FinalizeVariablesAllowUnset(cfg, map[string]RawVariable{"given": {Source: FromCLI, Raw: "x", Origin: "-var"}}, nil)
	if len(ds) > 0 {
		t.Fatalf("unexpected diagnostics: %s", ds.Error())
	}
	want := map[string]cty.Value{
		"req":    cty.UnknownVal(cty.Number),
		"hidden": cty.UnknownVal(cty.String).Mark(configschema.SensitiveMark),
		"given":  cty.StringVal("x"),
	}
	if diff := cmp.Diff(want, got, ctyOpts); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, ds := FinalizeVariables(cfg, nil, nil); !ds.HasErrors() {
		t.Errorf("FinalizeVariables must still require the variables")
	}
}

// TestStateScopeModules evaluates module.NAME as the console shows it:
// each instance's outputs from its variables and its resources in state.
func TestStateScopeModules(t *testing.T) {
	cfg, lds := configs.LoadFiles(".", map[string][]byte{
		"main.tf": []byte(`
module "m" {
  source = "./m"
  count  = 2
  name   = "n${count.index}"
}
module "single" {
  source = "./m"
  name   = "s"
}
`),
		"m/main.tf": []byte(`
variable "name" { type = string }
resource "terraform_data" "r" {}
output "label" { value = "${var.name}-${path.module}" }
output "id" { value = terraform_data.r.id }
`),
	})
	if lds.HasErrors() {
		t.Fatal(lds)
	}
	tp := addrs.NewBuiltInProvider("terraform")
	schema := &configschema.Block{Attributes: map[string]*configschema.Attribute{"id": {Type: cty.String, Computed: true}}}
	schemas := providers.Schemas{tp: {ResourceTypes: map[string]providers.Schema{"terraform_data": {Block: schema}}}}
	st := states.NewState()
	addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "r"}.Instance(addrs.NoKey).
		Absolute(addrs.RootModuleInstance.Child("m", addrs.IntKey(1)))
	st.SetResourceInstanceCurrent(addr, &states.ObjectSrc{AttrsJSON: []byte(`{"id":"x1"}`), Status: states.ObjectReady}, addrs.AbsProviderConfig{Provider: tp})
	scope, ds := StateScope(StateScopeOptions{Config: cfg, State: st, Schemas: schemas, Variables: map[string]cty.Value{}, ModuleDir: ".", Workspace: "default"})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	tests := map[string]cty.Value{
		"module.m[0].label":   cty.StringVal("n0-m"),
		"module.m[1].id":      cty.StringVal("x1"),
		"module.single.label": cty.StringVal("s-m"),
		"module.m[1].label":   cty.StringVal("n1-m"),
	}
	for src, want := range tests {
		expr, hd := hclsyntax.ParseExpression([]byte(src), "x", hcl.InitialPos)
		if hd.HasErrors() {
			t.Fatal(hd)
		}
		got, eds := scope.EvalExpr(expr, cty.DynamicPseudoType)
		if eds.HasErrors() || !got.RawEquals(want) {
			t.Errorf("%s = %#v (%v), want %#v", src, got, eds, want)
		}
	}
	if got, _ := scope.EvalExpr(mustExpr(t, "module.m[0].id"), cty.DynamicPseudoType); got.IsKnown() {
		t.Errorf("module.m[0].id = %#v, want unknown: the instance has no object in state", got)
	}
}

func mustExpr(t *testing.T, src string) hcl.Expression {
	t.Helper()
	expr, hd := hclsyntax.ParseExpression([]byte(src), "x", hcl.InitialPos)
	if hd.HasErrors() {
		t.Fatal(hd)
	}
	return expr
}
