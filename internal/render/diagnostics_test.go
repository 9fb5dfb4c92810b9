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

// TestDiagnosticsGolden covers what `terraform validate` did not show:
// warnings and their consolidation, the "with" line, diagnostics without a
// source or with a source file not at hand, ranges over several lines, a
// JSON configuration file and detail text with preformatted lines. Run
// with -update to rewrite the golden files.
func TestDiagnosticsGolden(t *testing.T) {
	src := []byte(`variable "v" {
  type = string
}

resource "terraform_data" "a" {
  count = 2
  input = {
    k = var.v
    j = [
      1,
      2,
    ]
  }
}
`)
	jsonSrc := []byte("{\n  \"resource\": {\n    \"terraform_data\": {\n      \"b\": {\n        \"input\": 1\n      }\n    }\n  }\n}\n")
	sources := map[string][]byte{"main.tf": src, "extra.tf.json": jsonSrc}
	rng := func(needle string) *hcl.Range { r := rangeOf(t, "main.tf", src, needle, 1); return &r }
	warn := func(needle, summary, detail string) diags.Diagnostic {
		return diags.Diagnostic{Severity: diags.Warning, Summary: summary, Detail: detail, Subject: rng(needle)}
	}
	tests := map[string]struct {
		reason string
		ds     diags.Diagnostics
	}{
		"warnings": {
			reason: "warnings come first; repeated ones are folded into the first",
			ds: diags.Diagnostics{
				diags.At(*rng("var.v"), "Invalid reference", "A reference is not valid here."),
				warn("count", "Deprecated argument", "The argument is deprecated."),
				warn("input", "Deprecated argument", "The argument is deprecated."),
				warn("type", "Deprecated argument", "The argument is deprecated."),
				warn("k = var.v", "Something else", ""),
			},
		},
		"check_warnings": {
			reason: "check blocks' reports are never folded: each is about a different check, as in Terraform",
			ds: diags.Diagnostics{
				{Severity: diags.Warning, Summary: "Check block assertion failed", Detail: "First.", Subject: rng("count"), FromCheckBlock: true},
				{Severity: diags.Warning, Summary: "Check block assertion failed", Detail: "Second.", Subject: rng("input"), FromCheckBlock: true},
			},
		},
		"with_address": {
			reason: "the object named by the diagnostic, with and without a range",
			ds: diags.Diagnostics{
				{Severity: diags.Error, Summary: "Provider produced inconsistent result after apply", Detail: "This is a bug in the provider.", Address: "terraform_data.a[1]", Subject: rng("k = var.v")},
				{Severity: diags.Error, Summary: "Resource vanished", Detail: "The object is gone.", Address: "terraform_data.a[0]"},
			},
		},
		"sourceless": {
			reason: "no range at all, and a range in a file not at hand",
			ds: diags.Diagnostics{
				diags.Errorf("Failed to read state", "The state file is locked."),
				diags.At(hcl.Range{Filename: "other.tf", Start: hcl.Pos{Line: 4, Column: 2, Byte: 30}, End: hcl.Pos{Line: 4, Column: 5, Byte: 33}}, "Missing file", "Gone."),
			},
		},
		"multiline": {
			reason: "a subject within a wider context spanning several lines",
			ds: diags.Diagnostics{{
				Severity: diags.Error, Summary: "Invalid value", Detail: "Expected a string.",
				Subject: rng("[\n      1,\n      2,\n    ]"), Context: rng("input = {\n    k = var.v\n    j = [\n      1,\n      2,\n    ]\n  }"),
			}},
		},
		"json_file": {
			reason: "the enclosing block of a .tf.json file",
			ds:     diags.Diagnostics{diags.At(rangeOf(t, "extra.tf.json", jsonSrc, "1", 1), "Invalid value", "Expected a string.")},
		},
		"detail_wrapping": {
			reason: "long detail lines wrap; lines starting with a space do not",
			ds: diags.Diagnostics{diags.Errorf("Invalid variable value",
				"The value given for the variable is not valid for its type constraint, which requires a string, a number or a boolean value to be given on the command line.\n\n    terraform plan -var 'v=a very long value that is not wrapped because it is code and must be copied exactly'\n\nThen run again.")},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			for _, color := range []bool{false, true} {
				var got bytes.Buffer
				if err := Diagnostics(&got, tc.ds, sources, Options{Color: color}); err != nil {
					t.Fatal(err)
				}
				file := "diagnostics/" + name + ".txt"
				if color {
					file = "diagnostics/" + name + ".color.txt"
				}
				checkGolden(t, file, got.String())
			}
		})
	}
}
