package cfnschema

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzLoadSchema: the loader never panics or hangs, and it returns either a
// type or error diagnostics. A type that loads and is not suppressed builds
// schemas the framework accepts.
func FuzzLoadSchema(f *testing.F) {
	for _, pattern := range []string{"testdata/rules/*.json", "testdata/bad/*.json"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			if src, err := os.ReadFile(file); err == nil {
				f.Add(src)
			}
		}
	}
	f.Add([]byte(`{"typeName":"A::B::C","properties":{"X":{"$ref":"#/definitions/D"}},"definitions":{"D":{"type":"object","properties":{"Y":{"$ref":"#/definitions/D"},"Z":{"$ref":"#/definitions/D"}}}}}`))
	f.Add([]byte(`{"typeName":"A::B::C","properties":{"X":{"type":["null","object"],"oneOf":[{"properties":{"A":{"type":"array","items":{"type":"array"}}}}]}}}`))
	f.Add([]byte(`{"typeName":"A::B::C","properties":{"X":{"type":"object","properties":{"Y":{"$ref":"#/properties/X"}}}}}`))
	f.Add([]byte(`{"typeName":"A::B::C","properties":{"X":{"$ref":"#/definitions/A"}},"definitions":{"A":{"type":"object","patternProperties":{"a":{"$ref":"#/definitions/B"},"b":{"$ref":"#/definitions/B"}}},"B":{"type":"array","items":{"type":"array","items":{"$ref":"#/definitions/C"}}},"C":{"type":"object","patternProperties":{"a":{"$ref":"#/definitions/A"},"b":{"$ref":"#/definitions/A"}}}}}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		var (
			rt    *ResourceType
			diags Diagnostics
			done  = make(chan struct{})
		)
		go func() {
			defer close(done)
			rt, diags = Load("fuzz.json", src, WithMaxAttributes(5000))
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("Load did not return within 10s")
		}
		if rt == nil {
			if !diags.HasErrors() {
				t.Fatalf("no type and no error diagnostic: %v", diags)
			}
			return
		}
		if diags.HasErrors() {
			t.Fatalf("a type together with error diagnostics: %v", diags)
		}
		if rt.Suppressed != "" {
			return
		}
		ctx := context.Background()
		if d := rt.ResourceSchema().ValidateImplementation(ctx); d.HasError() {
			t.Fatalf("resource schema rejected by the framework: %v", d)
		}
		if d := rt.DataSourceSchema().ValidateImplementation(ctx); d.HasError() {
			t.Fatalf("data source schema rejected by the framework: %v", d)
		}
		_ = rt.Explain()
	})
}
