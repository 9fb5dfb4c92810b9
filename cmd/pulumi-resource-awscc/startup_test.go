package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/emptypb"
)

// BenchmarkStartup launches the plugin as the Pulumi engine does (here
// with no engine to report to) and measures the time to the first
// answered call (GetPluginInfo), then to the package schema of every
// built-in CloudFormation type (GetSchema), whose size it reports.
// pulumi-terraform-bridge's pulumi-aws takes 1.7 s to its first answer;
// the CloudFormation schemas here load in the background instead.
func BenchmarkStartup(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "pulumi-resource-awscc")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	var first, schema time.Duration
	var size int
	for i := 0; i < b.N; i++ {
		f, s, n := launch(b, bin)
		first, schema, size = first+f, schema+s, n
	}
	b.ReportMetric(float64(first.Milliseconds())/float64(b.N), "ms-to-first-answer")
	b.ReportMetric(float64(schema.Milliseconds())/float64(b.N), "ms-to-schema")
	b.ReportMetric(float64(size)/(1<<20), "schema-MiB")
}

func launch(b *testing.B, bin string) (first, schema time.Duration, size int) {
	start := time.Now()
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "CAIRN_AWSCC_TYPES=")
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	port, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		b.Fatal(err)
	}
	conn, err := grpc.NewClient("127.0.0.1:"+strings.TrimSpace(port), grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(1<<30)))
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	client := pulumirpc.NewResourceProviderClient(conn)
	ctx := context.Background()
	if _, err := client.GetPluginInfo(ctx, &emptypb.Empty{}); err != nil {
		b.Fatal(err)
	}
	first = time.Since(start)
	resp, err := client.GetSchema(ctx, &pulumirpc.GetSchemaRequest{})
	if err != nil {
		b.Fatal(err)
	}
	return first, time.Since(start), len(resp.Schema)
}
