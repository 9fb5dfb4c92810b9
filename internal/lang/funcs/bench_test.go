package funcs

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// BenchmarkTable measures building the table, which the engine does once per
// module per phase.
func BenchmarkTable(b *testing.B) {
	dir := b.TempDir()
	b.ReportAllocs()
	for b.Loop() {
		Table(dir)
	}
}

// BenchmarkCallViaHCL measures calls the way the engine makes them: an hcl
// expression evaluated with the table in its EvalContext. The "raw"
// variants call go-cty stdlib's functions directly, without markSafe, to show
// what the wrapper costs.
func BenchmarkCallViaHCL(b *testing.B) {
	tbl := Table(b.TempDir())
	raw := map[string]function.Function{
		"upper":      stdlib.UpperFunc,
		"jsonencode": stdlib.JSONEncodeFunc,
	}
	cases := []struct {
		name  string
		funcs map[string]function.Function
		expr  string
	}{
		{"upper", tbl, `upper("hello")`},
		{"upper/raw", raw, `upper("hello")`},
		{"upper/sensitive", tbl, `upper(secret)`},
		{"jsonencode", tbl, `jsonencode({a = [1, 2, 3], b = "x", c = {d = true}})`},
		{"jsonencode/raw", raw, `jsonencode({a = [1, 2, 3], b = "x", c = {d = true}})`},
		{"lookup", tbl, `lookup(str_map, "b", "z")`},
		{"cidrsubnet", tbl, `cidrsubnet("10.0.0.0/8", 8, 42)`},
		{"format+join", tbl, `format("%s-%s", join(",", strs), upper("x"))`},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			expr, diags := hclsyntax.ParseExpression([]byte(tc.expr), "bench.tf", hcl.InitialPos)
			if diags.HasErrors() {
				b.Fatal(diags.Error())
			}
			ctx := &hcl.EvalContext{Variables: testVars(), Functions: tc.funcs}
			b.ReportAllocs()
			for b.Loop() {
				if _, diags := expr.Value(ctx); diags.HasErrors() {
					b.Fatal(diags.Error())
				}
			}
		})
	}
}
