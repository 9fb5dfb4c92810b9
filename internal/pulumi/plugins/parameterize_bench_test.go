package plugins

import (
	"context"
	"runtime"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/cairn-iac/cairn/internal/cfnsources"
	"github.com/cairn-iac/cairn/internal/pulumi/server"
)

// BenchmarkParameterizeByValue is what a program's first use of a
// parameterized provider package costs the plugin: Parameterize by value
// (finding hashicorp/random in a filesystem mirror through the CLI
// configuration) and the package schema, which launches the provider's
// plugin process once and reads its schema.
func BenchmarkParameterizeByValue(b *testing.B) {
	getenv := randomMirror(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		s := server.New(server.Info{
			Name: ProviderPlugin, Version: Version,
			Parameterize: providerParams{find: providerFinder{getenv: getenv, cwd: b.TempDir()}},
		}, unparameterized(ProviderPlugin, "hashicorp/random"), nil)
		if _, err := s.Parameterize(ctx, byValue("random", "3.9.0", randomValue)); err != nil {
			b.Fatal(err)
		}
		if _, err := s.GetSchema(ctx, &pulumirpc.GetSchemaRequest{}); err != nil {
			b.Fatal(err)
		}
		_ = s.Close()
	}
	b.ReportMetric(1, "launches/op")
}

// BenchmarkGetMappingAWSCC: the mapping of every awscc type, which
// pulumi convert asks for once per conversion. It reports the mapping's
// size and the heap in use after it was built.
func BenchmarkGetMappingAWSCC(b *testing.B) {
	s := server.New(server.Info{Name: "awscc", Version: Version}, AWSCC(cfnsources.Sources{}, ""), nil)
	defer s.Close()
	ctx := context.Background()
	req := &pulumirpc.GetMappingRequest{Key: "terraform", Provider: "awscc"}
	if _, err := s.GetMapping(ctx, req); err != nil { // loads the provider
		b.Fatal(err)
	}
	var size int
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		resp, err := s.GetMapping(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		size = len(resp.GetData())
	}
	b.StopTimer()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(size)/(1<<20), "MiB-mapping")
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "MiB-heap")
}
