package boundaries

import (
	"os"
	"path/filepath"
	"testing"
)

// moduleRoot is the directory of the go.mod above the test's directory.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// TestModuleBoundaries holds every package of Cairn to the rules its
// doc.go states (and those of the doc.go files above it), over the real
// import graph.
func TestModuleBoundaries(t *testing.T) {
	g, err := Load(moduleRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range Check(g) {
		t.Error(v)
	}
}
