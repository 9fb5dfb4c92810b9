package render

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
)

// FuzzDiagnostics loads arbitrary bytes as a configuration file, in either
// syntax and optionally repeated many times (so thousands of diagnostics
// point into one large file), and renders every diagnostic, plain and in
// colour. The properties: rendering never panics or fails, shows at most
// MaxDiagnosticsShown errors plus the line counting the rest, and the
// count it gives adds up.
func FuzzDiagnostics(f *testing.F) {
	for _, s := range []string{
		"resource \"terraform_data\" \"a\" {\n  inptu = 1\n}\n",
		"locals {\n  x = ((((1))))\n}\n",
		"resource \"terraform_data\" \"a\" {\n  input = 1e999999999\n}\n",
		"\x00\xff{{{",
		`{"resource": {"terraform_data": {"a": {"inptu": 1}}}}`,
	} {
		f.Add([]byte(s), false, uint16(0))
	}
	f.Add([]byte("resource \"x\" \"y\" { bogus = 1 }\n"), false, uint16(300))
	f.Add([]byte("("), false, uint16(2000))
	// 2,999 copies of a 400-byte block: 1.2 MB, over wholeParseMax.
	f.Add([]byte("resource \"terraform_data\" \"r\" {\n  inptu = \"${(((1)))}\"\n  x = <<EOT\n}\nEOT\n  # "+strings.Repeat("-", 320)+"\n}\n"), false, uint16(2999))
	f.Fuzz(func(t *testing.T, chunk []byte, asJSON bool, repeat uint16) {
		name := "main.tf"
		if asJSON {
			name = "main.tf.json"
		}
		src := bytes.Repeat(chunk, 1+int(repeat)%3000)
		// Up to twice wholeParseMax, so large files' block-by-block
		// context is reached too.
		if len(src) > 2*wholeParseMax {
			t.Skip("larger than 2 MiB")
		}
		mod, ds := configs.LoadFiles(".", map[string][]byte{name: src})
		for _, color := range []bool{false, true} {
			var out bytes.Buffer
			if err := Diagnostics(&out, ds, mod.Sources, Options{Color: color}); err != nil {
				t.Fatal(err)
			}
			if color {
				continue
			}
			errs := 0
			for _, d := range ds {
				if d.Severity == diags.Error {
					errs++
				}
			}
			shown := strings.Count(out.String(), "\nError: ")
			if errs <= MaxDiagnosticsShown {
				if shown != errs {
					t.Fatalf("%d errors shown of %d", shown, errs)
				}
				return
			}
			trailer := fmt.Sprintf("\nError: %d more errors not shown\n", errs-MaxDiagnosticsShown)
			if errs == MaxDiagnosticsShown+1 {
				trailer = "\nError: 1 more error not shown\n"
			}
			if shown != MaxDiagnosticsShown+1 || !strings.Contains(out.String(), trailer) {
				t.Fatalf("%d of %d errors shown, want %d and %q", shown, errs, MaxDiagnosticsShown, trailer)
			}
		}
	})
}
