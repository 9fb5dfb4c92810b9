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

	"github.com/cairn-iac/cairn/internal/testprocess"
)

// buildPlugin builds the plugin once per test binary.
var buildPlugin = testprocess.BuildOnce(".", "pulumi-resource-awscc")

// TestStartupCache: a launch answers GetSchema with the package schema
// a launch before it built over the same schema set, byte for byte; a
// damaged store is rebuilt; a changed schema set is never answered from
// the old set's schema.
func TestStartupCache(t *testing.T) {
	bin := buildPlugin(t)
	overlay := t.TempDir()
	writeLogGroup := func(description string) {
		t.Helper()
		schema := `{"typeName":"AWS::Logs::LogGroup","description":"` + description + `","properties":{"LogGroupName":{"type":"string"}},"primaryIdentifier":["/properties/LogGroupName"],"additionalProperties":false}`
		if err := os.WriteFile(filepath.Join(overlay, "loggroup.json"), []byte(schema), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := map[string]struct {
		reason  string
		types   string
		between func(t *testing.T, cache string)
		same    bool
		want    string
	}{
		"warm every type": {reason: "A warm launch answers the cold launch's schema for every built-in type.", same: true},
		"damaged store": {
			reason: "A damaged store is rebuilt: the answer is the one built from the schemas.",
			types:  "AWS::Logs::LogGroup", same: true,
			between: func(t *testing.T, cache string) {
				entries, _ := filepath.Glob(filepath.Join(cache, "pulumi-awscc-*"))
				if len(entries) != 1 {
					t.Fatalf("a cold launch keeps the schema; the cache holds %v", entries)
				}
				if err := os.WriteFile(entries[0], []byte(`{"name":"stale"}`), 0o644); err != nil {
					t.Fatal(err)
				}
			},
		},
		"changed schema set": {
			reason: "An edited schema in CAIRN_AWSCC_SCHEMAS is another set: the answer has the edit.",
			types:  "AWS::Logs::LogGroup",
			between: func(t *testing.T, _ string) {
				time.Sleep(10 * time.Millisecond)
				writeLogGroup("FIRST COPY") // the same size: only the modification time tells
			},
			want: "FIRST COPY",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			writeLogGroup("first copy")
			cache := t.TempDir()
			env := []string{"CAIRN_PLUGIN_CACHE=" + cache, "CAIRN_AWSCC_TYPES=" + tc.types, "CAIRN_AWSCC_SCHEMAS=" + overlay}
			cold := launch(t, bin, env...)
			if tc.between != nil {
				tc.between(t, cache)
			}
			warm := launch(t, bin, env...)
			if got := cold.schema == warm.schema; got != tc.same {
				t.Errorf("%s\nschemas alike: %v, want %v (%d and %d bytes)", tc.reason, got, tc.same, len(cold.schema), len(warm.schema))
			}
			if tc.want != "" && !strings.Contains(warm.schema, tc.want) {
				t.Errorf("%s\nthe second schema lacks %q", tc.reason, tc.want)
			}
			if third := launch(t, bin, env...); third.schema != warm.schema {
				t.Errorf("%s\na third launch must answer the second's schema", tc.reason)
			}
		})
	}
}

// BenchmarkStartup launches the plugin as the Pulumi engine does (here
// with no engine to report to) and measures the time to the first
// answered call (GetPluginInfo), then to the package schema of every
// built-in CloudFormation type (GetSchema), whose size it reports, with
// the process's peak RSS: cold (an empty plugin cache: the schemas are
// translated and the package schema built) and warm (the kept package
// schema). pulumi-terraform-bridge's pulumi-aws takes 1.7 s to its first
// answer; the CloudFormation schemas here load in the background instead.
func BenchmarkStartup(b *testing.B) {
	bin := buildPlugin(b)
	for _, warm := range []bool{false, true} {
		name := "cold"
		if warm {
			name = "warm"
		}
		b.Run(name, func(b *testing.B) {
			cache := b.TempDir()
			env := []string{"CAIRN_AWSCC_TYPES=", "CAIRN_AWSCC_SCHEMAS=", "CAIRN_PLUGIN_CACHE=" + cache}
			if warm {
				launch(b, bin, env...)
			}
			var first, schema time.Duration
			var size int
			var rss uint64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if !warm {
					b.StopTimer()
					if err := os.RemoveAll(cache); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				r := launch(b, bin, env...)
				first, schema, size, rss = first+r.first, schema+r.toSchema, len(r.schema), max(rss, r.peakRSS)
			}
			b.ReportMetric(float64(first.Milliseconds())/float64(b.N), "ms-to-first-answer")
			b.ReportMetric(float64(schema.Milliseconds())/float64(b.N), "ms-to-schema")
			b.ReportMetric(float64(size)/(1<<20), "schema-MiB")
			b.ReportMetric(float64(rss)/(1<<20), "peak-RSS-MiB")
		})
	}
}

// launchResult is what one launch answered and what it cost.
type launchResult struct {
	first, toSchema time.Duration
	schema          string
	// peakRSS is the process's peak resident set (VmHWM) once it has
	// answered GetSchema, in bytes.
	peakRSS uint64
}

// launch starts the plugin with env added to this process's environment
// and asks for its package schema.
func launch(tb testing.TB, bin string, env ...string) launchResult {
	tb.Helper()
	start := time.Now()
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	port, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		tb.Fatal(err)
	}
	conn, err := grpc.NewClient("127.0.0.1:"+strings.TrimSpace(port), grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(1<<30)))
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close()
	client := pulumirpc.NewResourceProviderClient(conn)
	ctx := context.Background()
	if _, err := client.GetPluginInfo(ctx, &emptypb.Empty{}); err != nil {
		tb.Fatal(err)
	}
	first := time.Since(start)
	resp, err := client.GetSchema(ctx, &pulumirpc.GetSchemaRequest{})
	if err != nil {
		tb.Fatal(err)
	}
	return launchResult{first: first, toSchema: time.Since(start), schema: resp.Schema, peakRSS: testprocess.PeakRSS(cmd.Process.Pid)}
}
