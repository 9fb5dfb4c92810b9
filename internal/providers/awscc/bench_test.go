package awscc

import (
	"context"
	"testing"

	"github.com/cairn-iac/cairn/internal/providers/tfproto6"
)

// BenchmarkNew loads and translates every schema of the corpus and builds
// the provider: what a run pays before it can ask for the schema.
func BenchmarkNew(b *testing.B) {
	dir := corpusDir(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(dir); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGetProviderSchema asks a fresh server for the schema of every
// type through the adapter (framework schema building and validation,
// protocol conversion, configschema conversion), as the first instance of
// a run does; later instances share the result.
func BenchmarkGetProviderSchema(b *testing.B) {
	p, err := New(corpusDir(b))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		resp := tfproto6.New(p.Server()).GetProviderSchema(ctx)
		if resp.Diagnostics.HasErrors() {
			b.Fatal(resp.Diagnostics)
		}
	}
}
