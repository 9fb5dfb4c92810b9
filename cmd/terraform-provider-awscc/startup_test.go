package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/providers/plugin"
)

// BenchmarkStartup launches the plugin as Terraform and Cairn's engine do
// (go-plugin's handshake over mutual TLS) and measures the time to its
// first answer, the provider schema (GetProviderSchema, the first call
// Terraform makes): with the one type a configuration uses
// (CAIRN_AWSCC_TYPES, as the README advises for plugin use) and with
// every built-in CloudFormation type.
func BenchmarkStartup(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "terraform-provider-awscc")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	for name, types := range map[string]string{"one-type": "AWS::Logs::LogGroup", "every-type": ""} {
		b.Run(name, func(b *testing.B) {
			b.Setenv("CAIRN_AWSCC_TYPES", types)
			var total time.Duration
			for i := 0; i < b.N; i++ {
				start := time.Now()
				c, err := plugin.Launch(context.Background(), bin, plugin.Options{Name: "registry.terraform.io/hashicorp/awscc"})
				if err != nil {
					b.Fatal(err)
				}
				total += time.Since(start)
				_ = c.Close()
			}
			b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms-to-schema")
		})
	}
}
