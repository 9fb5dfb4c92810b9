package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/google/go-cmp/cmp"
)

// TestExprValuesMatchTerraform renders a failed precondition with the
// values of its references and compares it with what `terraform plan`
// printed for testdata/terraform/conditions/main.tf, in both colour
// modes, after the one documented difference ("on main.tf line 11" is
// Cairn's "on main.tf:11:23").
func TestExprValuesMatchTerraform(t *testing.T) {
	src := []byte(readGolden(t, "terraform/conditions/main.tf"))
	d := diags.At(rangeOf(t, "main.tf", src, `each.value >= var.min && each.key != ""`, 1),
		"Resource precondition failed", "Instance small is too small: 1 < 3.")
	d.Values = []diags.ExprValue{{Traversal: "each.key", Statement: `is "small"`}, {Traversal: "each.value", Statement: "is 1"}, {Traversal: "var.min", Statement: "is 3"}}
	withColumns := strings.NewReplacer("on main.tf line 11,", "on main.tf:11:23,")
	tests := map[string]struct {
		color bool
		want  string
	}{
		"plain":  {false, "terraform/conditions/plan.txt"},
		"colour": {true, "terraform/conditions/plan.color.txt"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var got bytes.Buffer
			if err := Diagnostics(&got, diags.Diagnostics{d}, map[string][]byte{"main.tf": src}, Options{Color: tc.color}); err != nil {
				t.Fatal(err)
			}
			want := withColumns.Replace(readGolden(t, tc.want))
			if diff := cmp.Diff(want, got.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
