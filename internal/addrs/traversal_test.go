package addrs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// traversalOpts compare traversals step by step, index keys as cty values.
var traversalOpts = cmp.Options{
	cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) }),
	cmpopts.IgnoreUnexported(hcl.TraverseRoot{}, hcl.TraverseAttr{}, hcl.TraverseIndex{}),
}

// TestScanPlainTraversal: the hand scanner takes plain text and gives
// exactly HCL's traversal, ranges included; everything else it leaves to
// HCL.
func TestScanPlainTraversal(t *testing.T) {
	cases := map[string]struct {
		reason string
		input  string
		plain  bool
	}{
		"Resource":       {input: "terraform_data.a", plain: true},
		"IntKey":         {input: "terraform_data.a[42]", plain: true},
		"StringKey":      {input: `module.m["k-1 x"].data.t.n["a/b"]`, plain: true},
		"NineDigits":     {input: "a.b[999999999]", plain: true},
		"Dashes":         {input: "a-b.c_d-", plain: true},
		"Keyword":        {reason: "true is a name in a traversal", input: "true.null", plain: true},
		"TenDigits":      {reason: "may not fit an int on every platform", input: "a.b[1000000000]"},
		"LeadingZero":    {input: "a.b[01]"},
		"Exponent":       {input: "a.b[1e3]"},
		"Negative":       {input: "a.b[-1]"},
		"Fraction":       {input: "a.b[1.5]"},
		"Escape":         {input: `a.b["a\"b"]`},
		"Template":       {input: `a.b["${x}"]`},
		"TemplateEscape": {input: `a.b["$${x}"]`},
		"Directive":      {input: `a.b["%{x}"]`},
		"NonASCIIName":   {input: "a.é"},
		"NonASCIIKey":    {input: `a.b["é"]`},
		"Space":          {input: "a . b"},
		"Splat":          {input: "a.b[*]"},
		"LegacyIndex":    {input: "a.0"},
		"Unclosed":       {input: "a.b[0"},
		"UnclosedString": {input: `a.b["x`},
		"StringNoClose":  {input: `a.b["x"`},
		"TrailingDot":    {input: "a."},
		"Empty":          {input: ""},
		"DigitFirst":     {input: "1a"},
		"Comment":        {input: "a.b # c"},
		"Newline":        {input: "a.b\n"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, ok := scanPlainTraversal(tc.input)
			if ok != tc.plain {
				t.Fatalf("%s\nscanPlainTraversal(%q) ok = %t, want %t", tc.reason, tc.input, ok, tc.plain)
			}
			if !ok {
				return
			}
			want, ds := hclsyntax.ParseTraversalAbs([]byte(tc.input), "", hcl.InitialPos)
			if ds.HasErrors() {
				t.Fatalf("HCL refuses %q: %s", tc.input, ds.Error())
			}
			if diff := cmp.Diff(want, got, traversalOpts); diff != "" {
				t.Errorf("%s\ntraversal of %q: -want +got:\n%s", tc.reason, tc.input, diff)
			}
		})
	}
}

// FuzzScanPlainTraversal: whatever the hand scanner accepts, HCL accepts
// too, with the same traversal and ranges.
func FuzzScanPlainTraversal(f *testing.F) {
	for _, s := range append(fuzzAddressSeeds, `module.a["x"].module.b[2].data.t.n[0]`, "a.b[0]", `a["b c"]`, "a.b[999999999]") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := scanPlainTraversal(s)
		if !ok {
			return
		}
		want, ds := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.InitialPos)
		if ds.HasErrors() {
			t.Fatalf("scanPlainTraversal accepts %q, which HCL refuses: %s", s, ds.Error())
		}
		if diff := cmp.Diff(want, got, traversalOpts); diff != "" {
			t.Fatalf("traversal of %q: -want +got:\n%s", s, diff)
		}
	})
}

// BenchmarkParseAbsResourceStr is the parse of one dependency address as
// a state file records it.
func BenchmarkParseAbsResourceStr(b *testing.B) {
	for name, s := range map[string]string{
		"root":   "terraform_data.r123",
		"module": `module.m["k"].module.n[3].terraform_data.r123`,
	} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, ds := ParseAbsResourceStr(s); ds.HasErrors() {
					b.Fatal(ds)
				}
			}
		})
	}
}
