package planning

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/lang/funcs"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// TestImportRepetitions checks what an import block's for_each accepts:
// maps, objects, sets of strings, and (unlike a resource's for_each)
// lists and tuples, each.key being the index there.
func TestImportRepetitions(t *testing.T) {
	cases := map[string]struct {
		expr    string
		keys    []cty.Value
		summary string
	}{
		"Map":         {expr: `{ a = "x", b = "y" }`, keys: []cty.Value{cty.StringVal("a"), cty.StringVal("b")}},
		"SetOfString": {expr: `toset(["p", "q"])`, keys: []cty.Value{cty.StringVal("p"), cty.StringVal("q")}},
		"Tuple":       {expr: `["p", "q"]`, keys: []cty.Value{cty.NumberIntVal(0), cty.NumberIntVal(1)}},
		"Null":        {expr: `null`, summary: "Invalid for_each argument"},
		"String":      {expr: `"x"`, summary: "Invalid for_each argument"},
		"SetOfNumber": {expr: `toset([1])`, summary: "Invalid for_each argument"},
		"Sensitive":   {expr: `sensitive({ a = "x" })`, summary: "Invalid for_each argument"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			expr, pds := hclsyntax.ParseExpression([]byte(c.expr), "x.tf", hcl.InitialPos)
			if pds.HasErrors() {
				t.Fatal(pds)
			}
			scope := &lang.Scope{Funcs: funcs.Table(t.TempDir())}
			reps, ds := importRepetitions(scope, expr)
			if c.summary != "" {
				if !ds.HasErrors() || ds[len(ds)-1].Summary != c.summary {
					t.Fatalf("got %v, want an error %q", ds, c.summary)
				}
				return
			}
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			if len(reps) != len(c.keys) {
				t.Fatalf("got %d repetitions, want %d", len(reps), len(c.keys))
			}
			for i, k := range c.keys {
				if !reps[i].EachKey.RawEquals(k) {
					t.Errorf("repetition %d: each.key %#v, want %#v", i, reps[i].EachKey, k)
				}
			}
		})
	}
}
