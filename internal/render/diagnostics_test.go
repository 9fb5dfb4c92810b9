package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// rangeOf returns the range of the n-th (from 1) occurrence of needle in
// src, as a parser would report it.
func rangeOf(t testing.TB, filename string, src []byte, needle string, n int) hcl.Range {
	t.Helper()
	off := -1
	for i := 0; i < n; i++ {
		next := bytes.Index(src[off+1:], []byte(needle))
		if next < 0 {
			t.Fatalf("%q not found %d times", needle, n)
		}
		off += 1 + next
	}
	return hcl.Range{Filename: filename, Start: posAt(src, off), End: posAt(src, off+len(needle))}
}

func posAt(src []byte, off int) hcl.Pos {
	line := 1 + bytes.Count(src[:off], []byte("\n"))
	col := off - (bytes.LastIndexByte(src[:off], '\n') + 1) + 1
	return hcl.Pos{Line: line, Column: col, Byte: off}
}

// validateDiags are the diagnostics `terraform validate` reported for
// testdata/terraform/diags/main.tf.
func validateDiags(t testing.TB, src []byte) diags.Diagnostics {
	at := func(needle string, n int, summary, detail string) diags.Diagnostic {
		return diags.At(rangeOf(t, "main.tf", src, needle, n), summary, detail)
	}
	return diags.Diagnostics{
		// Out of order on purpose: the renderer sorts by position.
		at(`"x"`, 2, "Invalid operand", "Unsuitable value for left operand: a number is required."),
		at("bogus", 1, "Unsupported argument", `An argument named "bogus" is not expected here.`),
		at("terraform_data.missing", 1, "Reference to undeclared resource", `A managed resource "terraform_data" "missing" has not been declared in the root module.`),
	}
}

// TestDiagnosticsMatchTerraform compares Diagnostics with what `terraform
// validate` printed, in both colour modes, after replacing Terraform's
// "on main.tf line N" with Cairn's "on main.tf:N:C": the one documented
// difference.
func TestDiagnosticsMatchTerraform(t *testing.T) {
	src := []byte(readGolden(t, "terraform/diags/main.tf"))
	sources := map[string][]byte{"main.tf": src}
	withColumns := strings.NewReplacer(
		"on main.tf line 3,", "on main.tf:3:3,",
		"on main.tf line 7,", "on main.tf:7:11,",
		"on main.tf line 14,", "on main.tf:14:7,",
	)
	tests := map[string]struct {
		color bool
		want  string
	}{
		"plain":  {false, "terraform/diags/validate.txt"},
		"colour": {true, "terraform/diags/validate.color.txt"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var got bytes.Buffer
			if err := Diagnostics(&got, validateDiags(t, src), sources, Options{Color: tc.color}); err != nil {
				t.Fatal(err)
			}
			want := withColumns.Replace(readGolden(t, tc.want))
			if diff := cmp.Diff(want, got.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
