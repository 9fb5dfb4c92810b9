package crds

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/cairn-iac/cairn/internal/cfnregistry"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/awscc"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// builtinSchema returns the awscc provider's schema over the built-in
// CloudFormation schemas of the named types (CloudFormation names).
func builtinSchema(t testing.TB, types ...string) providers.GetProviderSchemaResponse {
	t.Helper()
	want := map[string]bool{}
	for _, n := range types {
		want[n] = true
	}
	docs, err := cfnregistry.Builtin(func(n string) bool { return want[n] })
	if err != nil {
		t.Fatal(err)
	}
	srcs := make([]cfnschema.Source, len(docs))
	for i, d := range docs {
		srcs[i] = cfnschema.Source{Name: d.Name, Data: d.Data}
	}
	catalog, _ := cfnschema.LoadSources(srcs)
	p, err := awscc.NewFromCatalog(catalog, nil, "built-in")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := p.Factory()()
	if err != nil {
		t.Fatal(err)
	}
	resp := inst.GetProviderSchema(context.Background())
	if resp.Diagnostics.HasErrors() {
		t.Fatal(resp.Diagnostics.Err())
	}
	if len(resp.ResourceTypes) != len(types) {
		t.Fatalf("loaded %d resource types, want %d", len(resp.ResourceTypes), len(types))
	}
	return resp
}

// golden compares got with testdata/golden/name, rewriting it under
// -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got; -update rewrites it):\n%s", path, diff)
	}
}
