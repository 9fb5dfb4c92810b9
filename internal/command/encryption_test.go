package command

import (
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

func TestStaticLocals(t *testing.T) {
	cases := map[string]struct {
		reason string
		expr   string
		want   cty.Value
	}{
		"literal":      {reason: "a literal is known", expr: `"abc"`, want: cty.StringVal("abc")},
		"variable":     {reason: "a variable's value is known", expr: `var.pass`, want: cty.StringVal("from-var")},
		"chained":      {reason: "a local of a local of a variable is known", expr: `upper(local.b)`, want: cty.StringVal("FROM-VAR!")},
		"resource":     {reason: "a resource attribute is only known while planning", expr: `terraform_data.x.output`, want: cty.DynamicVal},
		"from_unknown": {reason: "a local of an unknown local is unknown", expr: `local.resource`, want: cty.DynamicVal},
	}
	locals := map[string]*configs.Local{
		"b":        {Name: "b", Expr: parseExpr(t, `"${var.pass}!"`)},
		"resource": {Name: "resource", Expr: parseExpr(t, `terraform_data.x.output`)},
	}
	for name, tc := range cases {
		locals[name] = &configs.Local{Name: name, Expr: parseExpr(t, tc.expr)}
	}
	m := &Meta{Dir: t.TempDir(), Streams: Streams{Now: time.Now}}
	base := &hcl.EvalContext{
		Variables: map[string]cty.Value{"var": cty.ObjectVal(map[string]cty.Value{"pass": cty.StringVal("from-var")})},
		Functions: m.funcTable(true),
	}
	got := staticLocals(locals, base)
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if v := got.GetAttr(name); !v.RawEquals(tc.want) {
				t.Errorf("%s: got %#v, want %#v", tc.reason, v, tc.want)
			}
		})
	}
}

func parseExpr(t *testing.T, src string) hcl.Expression {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), "test.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return expr
}
