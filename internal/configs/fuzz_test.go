package configs

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/hclscan"
)

// FuzzLoadFiles feeds arbitrary bytes to the loader as a native-syntax file
// and as a JSON file. The property: it never panics, always returns a
// module holding the source, and every diagnostic is well formed and
// located in the file it was given.
func FuzzLoadFiles(f *testing.F) {
	for _, tc := range diagnosticCases() {
		for _, src := range tc.files {
			f.Add([]byte(src))
		}
	}
	for _, pattern := range []string{"testdata/*/*.tf", "testdata/*/*.tf.json"} {
		paths, _ := filepath.Glob(pattern)
		for _, p := range paths {
			if src, err := os.ReadFile(p); err == nil {
				f.Add(src)
			}
		}
	}
	// Hostile inputs: nesting either side of the limit, numbers too large
	// to store, bytes that are not UTF-8, thousands of errors.
	for _, src := range []string{
		"locals {\n  x = " + strings.Repeat("(", hclscan.MaxDepth-2) + "1" + strings.Repeat(")", hclscan.MaxDepth-2) + "\n}\n",
		"locals {\n  x = " + strings.Repeat("[", hclscan.MaxDepth+1) + "\n}\n",
		`{"locals": {"x": "${` + strings.Repeat("(", hclscan.MaxDepth) + `}"}}`,
		"resource \"terraform_data\" \"a\" {\n  input = 1e999999999\n}\n",
		"locals {\n  x = \"\xff\"\n}\n",
		strings.Repeat("resource \"x\" \"y\" { bogus = 1 }\n", 500),
	} {
		f.Add([]byte(src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, name := range []string{"main.tf", "main.tf.json"} {
			m, ds := LoadFiles(".", map[string][]byte{name: src})
			if m == nil {
				t.Fatalf("%s: nil module", name)
			}
			if !bytes.Equal(m.Sources[name], src) {
				t.Fatalf("%s: Sources does not hold the file's bytes", name)
			}
			checkDiagnostics(t, name, ds)
		}
	})
}

func checkDiagnostics(t *testing.T, name string, ds diags.Diagnostics) {
	t.Helper()
	for _, d := range ds {
		if d.Severity != diags.Error && d.Severity != diags.Warning {
			t.Errorf("%s: diagnostic with severity %q: %s", name, d.Severity, d)
		}
		if d.Summary == "" {
			t.Errorf("%s: diagnostic without summary: %s", name, d)
		}
		if d.Subject != nil && d.Subject.Filename != name {
			t.Errorf("%s: diagnostic located in %q: %s", name, d.Subject.Filename, d)
		}
	}
}
