package render

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/hclscan"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// misspelledArguments returns a file of n resource blocks, each with a
// misspelled argument, and the diagnostic validate reports for each.
func misspelledArguments(t testing.TB, n int) ([]byte, diags.Diagnostics) {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "resource \"terraform_data\" \"r%d\" {\n  inptu = %d\n}\n", i, i)
	}
	src := []byte(b.String())
	ds := make(diags.Diagnostics, n)
	for i := range n {
		ds[i] = diags.At(rangeOf(t, "main.tf", src, "inptu", i+1), "Unsupported argument", `An argument named "inptu" is not expected here. Did you mean "input"?`)
	}
	return src, ds
}

// TestDiagnosticsCapped: past MaxDiagnosticsShown errors (or warnings),
// the rest are counted in one last diagnostic instead of printed.
func TestDiagnosticsCapped(t *testing.T) {
	src, errs := misspelledArguments(t, 250)
	warn := diags.Diagnostic{Severity: diags.Warning, Summary: "Sourceless warning"}
	tests := map[string]struct {
		reason      string
		ds          diags.Diagnostics
		wantShown   int
		wantTrailer string
	}{
		"under the cap": {
			reason:    "as many as the cap: all shown, no trailer",
			ds:        errs[:MaxDiagnosticsShown],
			wantShown: MaxDiagnosticsShown,
		},
		"over the cap": {
			reason:      "the first 100 errors in source order, then the count of the rest",
			ds:          errs,
			wantShown:   MaxDiagnosticsShown,
			wantTrailer: "Error: 150 more errors not shown\n\nCairn shows the first 100 errors of a run; 250 errors were found in all. Fix\nthose shown and run the command again.\n",
		},
		"one over": {
			ds:          errs[:MaxDiagnosticsShown+1],
			wantShown:   MaxDiagnosticsShown,
			wantTrailer: "Error: 1 more error not shown\n",
		},
		"warnings do not crowd out errors": {
			reason:      "sourceless warnings are not folded; they are capped on their own",
			ds:          append(slicesRepeat(warn, 150), errs[:3]...),
			wantShown:   MaxDiagnosticsShown + 3,
			wantTrailer: "Warning: 50 more warnings not shown\n",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var got bytes.Buffer
			if err := Diagnostics(&got, tc.ds, map[string][]byte{"main.tf": src}, Options{}); err != nil {
				t.Fatal(err)
			}
			out := got.String()
			shown := strings.Count(out, "\nError: Unsupported argument") + strings.Count(out, "\nWarning: Sourceless warning")
			if diff := cmp.Diff(tc.wantShown, shown); diff != "" {
				t.Errorf("%s\ndiagnostics shown (-want +got):\n%s", tc.reason, diff)
			}
			if tc.wantTrailer == "" {
				if strings.Contains(out, "not shown") {
					t.Errorf("%s\nunexpected trailer in:\n%s", tc.reason, out[max(len(out)-400, 0):])
				}
				return
			}
			if !strings.Contains(out, "\n"+tc.wantTrailer) {
				t.Errorf("%s\noutput does not contain %q; it ends:\n%s", tc.reason, tc.wantTrailer, out[max(len(out)-400, 0):])
			}
		})
	}
}

func slicesRepeat(d diags.Diagnostic, n int) diags.Diagnostics {
	out := make(diags.Diagnostics, n)
	for i := range out {
		out[i] = d
	}
	return out
}

// TestDiagnosticsDeepSource: a diagnostic in a file nested too deeply to
// parse is shown with its source lines but without the enclosing block;
// finding that block by parsing the file overflowed the stack and killed
// the process.
func TestDiagnosticsDeepSource(t *testing.T) {
	const depth = 70_000
	src := []byte("locals {\n  x = " + strings.Repeat("(", depth) + "1" + strings.Repeat(")", depth) + "\n}\n")
	d := diags.At(hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 2, Column: 7, Byte: 15}, End: hcl.Pos{Line: 2, Column: 8, Byte: 16}},
		"Nesting too deep", fmt.Sprintf("More than %d levels.", hclscan.MaxDepth))
	var got bytes.Buffer
	if err := Diagnostics(&got, diags.Diagnostics{d}, map[string][]byte{"main.tf": src}, Options{}); err != nil {
		t.Fatal(err)
	}
	if want := "  on main.tf:2:7:\n"; !strings.Contains(got.String(), want) {
		t.Errorf("output does not contain %q:\n%.300s", want, got.String())
	}
}

// BenchmarkDiagnosticsMany renders 2,000 diagnostics in one 2,000-block
// file: the case that took 101 s when every diagnostic parsed the file
// again.
func BenchmarkDiagnosticsMany(b *testing.B) {
	src, ds := misspelledArguments(b, 2000)
	sources := map[string][]byte{"main.tf": src}
	b.ReportAllocs()
	for b.Loop() {
		var out bytes.Buffer
		if err := Diagnostics(&out, ds, sources, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDiagnosticsLargeFileContext: in a file too large to parse whole for
// context, a diagnostic still names its enclosing block, from a parse of
// that block alone; in large garbage it is shown without one.
func TestDiagnosticsLargeFileContext(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() <= wholeParseMax; i++ {
		fmt.Fprintf(&b, "resource \"terraform_data\" \"r%d\" {\n  input = %d\n}\n", i, i)
	}
	src := []byte(b.String() + "resource \"terraform_data\" \"last\" {\n  inptu = 1\n}\n")
	garbage := bytes.Repeat([]byte("\x00{\"\n"), wholeParseMax)
	tests := map[string]struct {
		src  []byte
		rng  hcl.Range
		want string
	}{
		"named from its block": {
			src:  src,
			rng:  rangeOf(t, "main.tf", src, "inptu", 1),
			want: `in resource "terraform_data" "last":`,
		},
		"garbage": {
			src:  garbage,
			rng:  hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 9, Column: 1, Byte: 32}, End: hcl.Pos{Line: 9, Column: 2, Byte: 33}},
			want: "on main.tf:9:1:\n",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var got bytes.Buffer
			d := diags.At(tc.rng, "Unsupported argument", "Not expected here.")
			if err := Diagnostics(&got, diags.Diagnostics{d}, map[string][]byte{"main.tf": tc.src}, Options{}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(got.String(), tc.want) {
				t.Errorf("output does not contain %q:\n%s", tc.want, got.String())
			}
		})
	}
}

// TestDiagnosticsLongLine: a source line longer than maxSnippetLine is
// shown cut around the subject, marked where cut, so a diagnostic in a
// minified 100 KB JSON file prints a few hundred bytes, not the file.
func TestDiagnosticsLongLine(t *testing.T) {
	filler := strings.Repeat(`"k": 1, `, 6000)
	src := []byte(`{"locals": {` + filler + `"bad": 1, ` + filler + `"z": 1}}`)
	short := []byte("{\"locals\": {\"bad\": 1}}\n")
	tests := map[string]struct {
		src  []byte
		want string
	}{
		"cut both sides": {
			src:  src,
			want: "   1: …" + strings.Repeat(`"k": 1, `, 25) + `"bad": 1, ` + strings.Repeat(`"k": 1, `, 24) + `"k"…` + "\n",
		},
		"short line whole": {
			src:  short,
			want: "   1: {\"locals\": {\"bad\": 1}}\n",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			d := diags.At(rangeOf(t, "main.tf.json", tc.src, `"bad"`, 1), "Invalid local", "Bad.")
			var got bytes.Buffer
			if err := Diagnostics(&got, diags.Diagnostics{d}, map[string][]byte{"main.tf.json": tc.src}, Options{}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(got.String(), tc.want) {
				t.Errorf("output does not contain\n%q\nit is\n%q", tc.want, got.String())
			}
		})
	}
}
