package server

import (
	"context"
	"fmt"
	"net"
	"sync/atomic"
	"testing"
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// BenchmarkCheckDiffCreate measures what one new resource costs through
// the adapter over gRPC on loopback, as the Pulumi engine calls it:
// Check, Diff, then Create of an awscc log group against a Cloud Control
// endpoint (in the same process). -latency runs it with the endpoint
// taking 300 ms per create, where what counts is how soon the provider's
// polling notices the create finished.
func BenchmarkCheckDiffCreate(b *testing.B) {
	for _, latency := range []time.Duration{0, 300 * time.Millisecond} {
		b.Run(fmt.Sprintf("latency=%s", latency), func(b *testing.B) {
			client := grpcClient(b, awsccServerLatency(b, latency))
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				newLogGroup(ctx, b, client, int64(i))
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "resources/s")
		})
	}
}

// BenchmarkCheckDiffCreateParallel is BenchmarkCheckDiffCreate with 16
// resources in flight at once, as the Pulumi engine creates independent
// resources: throughput through one plugin process.
func BenchmarkCheckDiffCreateParallel(b *testing.B) {
	client := grpcClient(b, awsccServer(b))
	ctx := context.Background()
	var n atomic.Int64
	b.SetParallelism(8) // 8 x GOMAXPROCS(2) = 16 goroutines
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			newLogGroup(ctx, b, client, n.Add(1))
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "resources/s")
}

// BenchmarkCheckDiff is the adapter's own cost per resource, without the
// create's round trips to Cloud Control: Check and Diff of a log group
// over gRPC on loopback.
func BenchmarkCheckDiff(b *testing.B) {
	client := grpcClient(b, awsccServer(b))
	ctx := context.Background()
	urn := "urn:pulumi:dev::p::awscc:logs/logGroup:LogGroup::lg"
	news := props(b, map[string]any{"logGroupName": "lg", "retentionInDays": 7, "tags": []any{map[string]any{"key": "a", "value": "b"}}})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		chk, err := client.Check(ctx, &pulumirpc.CheckRequest{Urn: urn, News: news})
		if err != nil || len(chk.Failures) > 0 {
			b.Fatal(err, chk.GetFailures())
		}
		if _, err := client.Diff(ctx, &pulumirpc.DiffRequest{Urn: urn, News: chk.Inputs}); err != nil {
			b.Fatal(err)
		}
	}
}

// newLogGroup is what the engine asks of a plugin for one new resource:
// Check, Diff, Create.
func newLogGroup(ctx context.Context, b *testing.B, client pulumirpc.ResourceProviderClient, i int64) {
	urn := fmt.Sprintf("urn:pulumi:dev::p::awscc:logs/logGroup:LogGroup::lg%d", i)
	news := props(b, map[string]any{"logGroupName": fmt.Sprintf("lg-%d", i), "retentionInDays": 7})
	chk, err := client.Check(ctx, &pulumirpc.CheckRequest{Urn: urn, News: news})
	if err != nil || len(chk.Failures) > 0 {
		b.Fatal(err, chk.GetFailures())
	}
	if _, err := client.Diff(ctx, &pulumirpc.DiffRequest{Urn: urn, News: chk.Inputs}); err != nil {
		b.Fatal(err)
	}
	if _, err := client.Create(ctx, &pulumirpc.CreateRequest{Urn: urn, Properties: chk.Inputs}); err != nil {
		b.Fatal(err)
	}
}

// grpcClient serves s on loopback and returns a client of it.
func grpcClient(b *testing.B, s *Server) pulumirpc.ResourceProviderClient {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	g := grpc.NewServer()
	pulumirpc.RegisterResourceProviderServer(g, s)
	go func() { _ = g.Serve(lis) }()
	b.Cleanup(g.Stop)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = conn.Close() })
	return pulumirpc.NewResourceProviderClient(conn)
}

// BenchmarkDiffStored is what `pulumi preview` asks per unchanged
// resource: Diff of the stored outputs against the same inputs, which
// reads the stored object back through the provider (upgrade) and plans.
func BenchmarkDiffStored(b *testing.B) {
	s := awsccServer(b)
	ctx := context.Background()
	urn := "urn:pulumi:dev::p::awscc:logs/logGroup:LogGroup::lg"
	news := props(b, map[string]any{"logGroupName": "lg", "retentionInDays": 7, "tags": []any{map[string]any{"key": "a", "value": "b"}}})
	created, err := s.Create(ctx, &pulumirpc.CreateRequest{Urn: urn, Properties: news})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d, err := s.Diff(ctx, &pulumirpc.DiffRequest{Urn: urn, Id: created.Id, Olds: created.Properties, News: news})
		if err != nil || d.Changes != pulumirpc.DiffResponse_DIFF_NONE {
			b.Fatal(err, d)
		}
	}
}
