package funcs

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// largeN is the size of the collections TestLargeCollections works on: the
// instance limit, at which the quadratic conversions took minutes.
const largeN = 100_000

// largeVars are a tuple of largeN strings, each of largeN/2 values twice;
// the same with one object among them; and an object of largeN attributes.
func largeVars() map[string]cty.Value {
	strs := make([]cty.Value, largeN)
	attrs := make(map[string]cty.Value, largeN)
	for i := range strs {
		strs[i] = cty.StringVal(fmt.Sprintf("k%d", i%(largeN/2)))
		attrs[fmt.Sprintf("a%d", i)] = cty.StringVal(fmt.Sprintf("v%d", i))
	}
	mixed := append([]cty.Value{cty.EmptyObjectVal}, strs[1:]...)
	return map[string]cty.Value{
		"big":     cty.TupleVal(strs),
		"mixed":   cty.TupleVal(mixed),
		"big_obj": cty.ObjectVal(attrs),
	}
}

// TestLargeCollections converts and searches collections of 100,000
// elements through hcl, as configurations do. go-cty's conversions from a
// tuple to a list or set, and from an object to a map, compare every
// element's type with every other's, and stdlib's distinct compares every
// element with every one kept: at this size each call took minutes (toset
// about four, distinct far more), so this test failed by timing out. Now
// each takes well under a second.
func TestLargeCollections(t *testing.T) {
	tbl := Table(t.TempDir())
	ctx := &hcl.EvalContext{Variables: largeVars(), Functions: tbl}
	cases := map[string]struct {
		reason  string
		expr    string
		check   func(cty.Value) error
		wantErr string
	}{
		"toset": {
			reason: "a set of the distinct strings",
			expr:   `toset(big)`,
			check:  lengthAndType(largeN/2, cty.Set(cty.String)),
		},
		"tolist": {
			reason: "every element, in order",
			expr:   `tolist(big)`,
			check:  lengthAndType(largeN, cty.List(cty.String)),
		},
		"tomap": {
			reason: "every attribute",
			expr:   `tomap(big_obj)`,
			check:  lengthAndType(largeN, cty.Map(cty.String)),
		},
		"distinct": {
			reason: "the first of each value, in order",
			expr:   `distinct(big)`,
			check: func(v cty.Value) error {
				if err := lengthAndType(largeN/2, cty.List(cty.String))(v); err != nil {
					return err
				}
				if last := v.Index(cty.NumberIntVal(largeN/2 - 1)); !last.RawEquals(cty.StringVal(fmt.Sprintf("k%d", largeN/2-1))) {
					return fmt.Errorf("last element %#v", last)
				}
				return nil
			},
		},
		"contains": {
			reason: "a list parameter, converted by the table's wrapper",
			expr:   `contains(big, "k49999")`,
			check:  equals(cty.True),
		},
		"sort": {
			reason: "a list of string parameter: hcl's conversion, quadratic in go-cty, unless the wrapper converts it",
			expr:   `sort(big)`,
			check:  lengthAndType(largeN, cty.List(cty.String)),
		},
		"join": {
			reason: "a list of string parameter",
			expr:   `length(join(",", big))`,
			check:  equals(cty.NumberIntVal(int64(len(strings.Join(largeStrings(), ","))))),
		},
		"zipmap": {
			reason: "keys, a list of string parameter (the values, a tuple, make an object)",
			expr:   `length(zipmap(big, big))`,
			check:  equals(cty.NumberIntVal(largeN / 2)),
		},
		"toset of mixed types": {
			reason:  "no common element type: refused at once, with stdlib's message",
			expr:    `toset(mixed)`,
			wantErr: "cannot convert tuple to set of any single type",
		},
		"distinct of mixed types": {
			reason:  "the argument does not convert to a list: hcl's message for a parameter",
			expr:    `distinct(mixed)`,
			wantErr: `Invalid value for "list" parameter: all list elements must have the same type`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			expr, diags := hclsyntax.ParseExpression([]byte(tc.expr), "test.tf", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			got, diags := expr.Value(ctx)
			if tc.wantErr != "" {
				if !strings.Contains(diags.Error(), tc.wantErr) {
					t.Fatalf("%s\n%s: error %q, want one containing %q", tc.reason, tc.expr, diags.Error(), tc.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatalf("%s\n%s: %s", tc.reason, tc.expr, diags.Error())
			}
			if err := tc.check(got); err != nil {
				t.Errorf("%s\n%s: %v", tc.reason, tc.expr, err)
			}
		})
	}
}

// largeStrings are the strings of largeVars' big tuple.
func largeStrings() []string {
	out := make([]string, largeN)
	for i := range out {
		out[i] = fmt.Sprintf("k%d", i%(largeN/2))
	}
	return out
}

func lengthAndType(n int, ty cty.Type) func(cty.Value) error {
	return func(v cty.Value) error {
		if !v.Type().Equals(ty) || !v.IsKnown() || v.LengthInt() != n {
			return fmt.Errorf("got a %s of %d elements, want a %s of %d", v.Type().FriendlyName(), v.LengthInt(), ty.FriendlyName(), n)
		}
		return nil
	}
}

func equals(want cty.Value) func(cty.Value) error {
	return func(v cty.Value) error {
		if !v.RawEquals(want) {
			return fmt.Errorf("got %#v, want %#v", v, want)
		}
		return nil
	}
}

// BenchmarkLargeCollections measures the calls of TestLargeCollections.
func BenchmarkLargeCollections(b *testing.B) {
	ctx := &hcl.EvalContext{Variables: largeVars(), Functions: Table(b.TempDir())}
	for _, src := range []string{`toset(big)`, `tolist(big)`, `tomap(big_obj)`, `distinct(big)`, `contains(big, "k49999")`, `sort(big)`, `zipmap(big, big)`, `join(",", big)`} {
		expr, diags := hclsyntax.ParseExpression([]byte(src), "bench.tf", hcl.InitialPos)
		if diags.HasErrors() {
			b.Fatal(diags.Error())
		}
		b.Run(src, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, diags := expr.Value(ctx); diags.HasErrors() {
					b.Fatal(diags.Error())
				}
			}
		})
	}
}
