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
			`"sensitive_attributes":[[{"type":"index","value":{"value":["x"],"type":["set","string"]}}]],"private":"AA==","dependencies":["module.m.t.n","module.a[0].module.b[\"k\"].data.t.n"]}`),
		`{"version":4,"outputs":{"o":{"value":{"value":1,"type":"number"},"type":"dynamic"}}}`,
		`{"version":4,"serial":1,"lineage":"l","outputs":{"a<":{"value":["x"],"type":["set","string"],"sensitive":true}},"resources":[]}`,
		validDoc(`{"module":"module.a[\"x\"].module.b[2]","mode":"data","type":"t","name":"n","provider":"module.a[\"x\"].provider[\"h/n/t\"].al","instances":[` +
			`{"index_key":"k","schema_version":0,"attributes":{"a":[1,{"b":null}]},"sensitive_attributes":[[{"type":"get_attr","value":"a"},{"type":"index","value":{"value":1,"type":"number"}}]]},` +
			`{"index_key":"k","deposed":"00000001","schema_version":0,"attributes":{}}]}`),
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

// FuzzObjectRecord checks that decoding a journal record never panics and
// that an accepted record encodes and decodes back to itself.
func FuzzObjectRecord(f *testing.F) {
	f.Add([]byte(`{"mode":"managed","type":"t","name":"n","provider":"provider[\"a/b/c\"]","instance":{"index_key":1,"schema_version":0,"attributes":{"id":"x"}}}`))
	f.Add([]byte(`{"module":"module.m","mode":"data","type":"t","name":"n","provider":"module.m.provider[\"a/b/c\"]","removed":true,"instance":{"deposed":"0000000a"}}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		var first statefile.ObjectRecord
		if first.UnmarshalJSON(src) != nil {
			return
		}
		enc, err := first.MarshalJSON()
		if err != nil {
			t.Fatalf("MarshalJSON of an accepted record: %v", err)
		}
		var second statefile.ObjectRecord
		if err := second.UnmarshalJSON(enc); err != nil {
			t.Fatalf("UnmarshalJSON of %s: %v", enc, err)
		}
		if diff := cmp.Diff(first, second, cmpOpts); diff != "" {
			t.Fatalf("round trip (-first +second):\n%s", diff)
		}
	})
}
