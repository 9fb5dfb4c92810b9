package lang

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestConvertTypeArgsAreNotReferences pins that the type argument of
// convert (Terraform 1.15) is not read as references, while a bare
// keyword elsewhere still is (and is then reported as an invalid one).
func TestConvertTypeArgsAreNotReferences(t *testing.T) {
	tests := map[string]struct {
		src  string
		want []string
	}{
		"convert":        {`convert(var.x, list(string))`, []string{"var.x"}},
		"core convert":   {`core::convert(local.y, map(object({a = optional(number, 1), b = bool})))`, []string{"local.y"}},
		"nested":         {`[convert(var.x, any), convert({}, set(number))]`, []string{"var.x"}},
		"keyword itself": {`[string]`, []string{"string"}},
		"other call":     {`tolist([string])`, []string{"string"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			expr, ds := hclsyntax.ParseExpression([]byte(tc.src), "t.tf", hcl.InitialPos)
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			var got []string
			for _, tr := range withoutTypeArgs(expr, expr.Variables()) {
				s := tr.RootName()
				for _, step := range tr[1:] {
					if a, ok := step.(hcl.TraverseAttr); ok {
						s += "." + a.Name
					}
				}
				got = append(got, s)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
