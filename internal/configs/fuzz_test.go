package configs

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-iac/cairn/internal/diags"
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
