package statefile_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/google/go-cmp/cmp"
)

// FuzzRead checks that Read never panics, and that whatever it accepts can
// be written, read back to an equal File, and written again to identical
// bytes.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.tfstate"))
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	for _, seed := range []string{
		`{"version":4}`,
		`{"version":3}`,
		resourceDoc("", `{"index_key":"k","deposed":"0000000a","status":"tainted","schema_version":1,"attributes":{"a":"<"},`+
			`"sensitive_attributes":[[{"type":"index","value":{"value":["x"],"type":["set","string"]}}]],"private":"AA==","dependencies":["module.m.t.n"]}`),
		`{"version":4,"outputs":{"o":{"value":{"value":1,"type":"number"},"type":"dynamic"}}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		first, err := statefile.Read(bytes.NewReader(src))
		if err != nil {
			return
		}
		written, err := statefile.Marshal(first)
		if err != nil {
			t.Fatalf("Write of a file Read accepted: %v", err)
		}
		second, err := statefile.Read(bytes.NewReader(written))
		if err != nil {
			t.Fatalf("Read of what Write wrote: %v\n%s", err, written)
		}
		if diff := cmp.Diff(first, second, cmpOpts); diff != "" {
			t.Fatalf("Read(Write(f)) differs from f (-first +second):\n%s", diff)
		}
		rewritten, err := statefile.Marshal(second)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(written, rewritten) {
			t.Fatalf("second Write differs:\n%s\n---\n%s", written, rewritten)
		}
	})
}
