package configs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/google/go-cmp/cmp"
)

// TestLoadRefusesDeepNesting: configuration nested past hclscan.MaxDepth
// is refused with a located diagnostic before hcl's recursive parsers see
// it; 70,000 levels overflowed the goroutine stack and killed the process.
func TestLoadRefusesDeepNesting(t *testing.T) {
	deep := func(open, close string) string {
		return strings.Repeat(open, 70_000) + strings.Repeat(close, 70_000)
	}
	tests := map[string]struct {
		name, src string
		want      []diagSpot
	}{
		"native parentheses": {
			name: "main.tf",
			src:  "locals {\n  x = " + deep("(", ")") + "\n}\n",
			want: []diagSpot{{"Nesting too deep", "main.tf:2:1006"}},
		},
		"native brackets": {
			name: "main.tf",
			src:  "locals {\n  x = " + deep("[", "]") + "\n}\n",
			want: []diagSpot{{"Nesting too deep", "main.tf:2:1006"}},
		},
		"json arrays": {
			name: "main.tf.json",
			src:  `{"locals": {"x": ` + deep("[", "]") + `}}`,
			want: []diagSpot{{"Nesting too deep", "main.tf.json:1:1016"}},
		},
		"json string holding an expression": {
			name: "main.tf.json",
			src:  `{"variable": {"v": {"type": "` + deep("list(", ")") + `"}}}`,
			want: []diagSpot{{"Nesting too deep", "main.tf.json:1:5034"}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, ds := LoadFiles(".", map[string][]byte{tc.name: []byte(tc.src)})
			if diff := cmp.Diff(tc.want, spots(ds)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLoadRefusesInvalidUTF8: bytes that are not UTF-8 are one error at
// the first bad byte, not one per bad byte; 10 MB of random bytes took
// 25 s and 3 GB to report.
func TestLoadRefusesInvalidUTF8(t *testing.T) {
	src := "locals {\n  x = \"\u00e9t\u00e9\xff\xfe\"\n}\n" + strings.Repeat("\xff", 100_000)
	for _, name := range []string{"main.tf", "main.tf.json"} {
		_, ds := LoadFiles(".", map[string][]byte{name: []byte(src)})
		want := []diagSpot{{"Invalid character encoding", name + ":2:11"}}
		if diff := cmp.Diff(want, spots(ds)); diff != "" {
			t.Errorf("%s: diagnostics (-want +got):\n%s", name, diff)
		}
	}
}

// TestLoadDirRefusesLargeFile: a configuration file over MaxFileSize is
// refused without being read whole or parsed.
func TestLoadDirRefusesLargeFile(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxFileSize + 1); err != nil { // sparse: cheap to make
		t.Fatal(err)
	}
	f.Close()
	_, ds := LoadDir(dir)
	if len(ds) != 1 || ds[0].Summary != "File too large" || !strings.Contains(ds[0].Detail, "16 MiB") {
		t.Errorf("diagnostics: %v", ds)
	}
	d := CheckSource("big.tf", make([]byte, MaxFileSize+1))
	if d == nil || d.Summary != "File too large" || d.Subject.Filename != "big.tf" {
		t.Errorf("CheckSource: %v", d)
	}
}

// diagSpot is a diagnostic's summary and where it is.
type diagSpot struct{ Summary, At string }

func spots(ds diags.Diagnostics) []diagSpot {
	var out []diagSpot
	for _, d := range ds {
		at := ""
		if d.Subject != nil {
			at = fmt.Sprintf("%s:%d:%d", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column)
		}
		out = append(out, diagSpot{d.Summary, at})
	}
	return out
}
