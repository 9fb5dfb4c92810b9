package eval

import (
	"context"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/cairn-iac/cairn/internal/lang/funcs"
)

// BenchmarkProviderFunctionCall measures a provider function call as an
// expression evaluates it (hcl, cty's function machinery, markSafe, the
// provider call in process through tfproto6), beside the built-in join
// for scale; a plugin adds the round trip plugin.BenchmarkCallFunction
// measures.
func BenchmarkProviderFunctionCall(b *testing.B) {
	tables, cfg, calls := functionTables(b, map[string]string{"main.tf": cairntestRoot, "m/main.tf": ""})
	for _, c := range []struct{ name, src string }{
		{"provider::ct::join", `provider::ct::join("-", "a", "b")`},
		{"builtin_join", `join("-", ["a", "b"])`},
	} {
		b.Run(c.name, func(b *testing.B) {
			expr := parseExpr(b, c.src)
			ctx := &hcl.EvalContext{Functions: tables.For(cfg)}
			calls.Store(0)
			b.ReportAllocs()
			for b.Loop() {
				if _, ds := expr.Value(ctx); ds.HasErrors() {
					b.Fatal(ds.Error())
				}
			}
			b.ReportMetric(float64(calls.Load())/float64(b.N), "calls/op")
		})
	}
}

// BenchmarkNewFunctionTables measures building the tables for a
// configuration that calls no provider function (what every run pays)
// and for one whose root calls one (a copy of the built-in table).
func BenchmarkNewFunctionTables(b *testing.B) {
	base := funcs.Table(".")
	lib, _ := cairntestLibrary(b)
	for _, c := range []struct{ name, src string }{
		{"no_provider_functions", `locals { x = upper("a") }`},
		{"root_calls_one", cairntestRoot},
	} {
		b.Run(c.name, func(b *testing.B) {
			cfg := loadFiles(b, map[string]string{"main.tf": c.src, "m/main.tf": ""})
			b.ReportAllocs()
			for b.Loop() {
				tables, _ := NewFunctionTables(context.Background(), cfg, base, lib)
				_ = tables.For(cfg)
			}
		})
	}
}
