package funcs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/hclscan"
	"github.com/zclconf/go-cty/cty"
)

// TestFileFunctionLimits: the file functions refuse what would never end or
// would not fit in memory, with an error that says why, instead of reading
// until the process is killed.
func TestFileFunctionLimits(t *testing.T) {
	dir := t.TempDir()
	// A sparse file: larger than the limit on disk, cheap to make.
	big, err := os.Create(filepath.Join(dir, "big.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(MaxReadFileSize + 1); err != nil {
		t.Fatal(err)
	}
	big.Close()
	deep := "${" + strings.Repeat("(", hclscan.MaxDepth) + "1" + strings.Repeat(")", hclscan.MaxDepth) + "}"
	writeFile(t, filepath.Join(dir, "deep.tmpl"), deep)
	// Two links back to their own directory: "**" following them would
	// branch without end.
	loops := filepath.Join(dir, "loops")
	if err := os.Mkdir(loops, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a", "b"} {
		if err := os.Symlink(".", filepath.Join(loops, name)); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(loops, "f.txt"), "x")

	runExprCases(t, Table(dir), map[string]exprCase{
		"file device": {
			reason:  "/dev/zero never ends; reading it grew memory until the process was killed",
			expr:    `length(file("/dev/zero"))`,
			wantErr: "cannot read /dev/zero: it is not a regular file",
		},
		"filesha256 device": {
			reason:  "the hashing functions share the reader",
			expr:    `filesha256("/dev/zero")`,
			wantErr: "it is not a regular file",
		},
		"templatefile device": {
			expr:    `templatefile("/dev/zero", {})`,
			wantErr: "it is not a regular file",
		},
		"file too large": {
			expr:    `file("big.bin")`,
			wantErr: "it is larger than 128 MiB, the most a file function reads",
		},
		"filebase64 too large": {
			expr:    `filebase64("big.bin")`,
			wantErr: "it is larger than 128 MiB",
		},
		"templatefile too deep": {
			reason:  "the template parser recurses once per level; too deep a template overflows the stack",
			expr:    `templatefile("deep.tmpl", {})`,
			wantErr: "Nesting too deep",
		},
		"fileset walk bounded": {
			reason:  "links that loop make \"**\" endless; the walk stops at the limit",
			expr:    `fileset("loops", "**")`,
			wantErr: "more than 100000 files and directories",
		},
		"fileset within limit": {
			reason: "a file behind no loop is still found when the walk is small",
			expr:   `contains(fileset("loops", "*.txt"), "f.txt")`,
			want:   cty.True,
		},
	})
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
