package main

import (
	"fmt"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/ccendpoint"
	"github.com/cairn-iac/cairn/internal/testendpoint"
)

// BenchmarkListResourcePlugins lists 1,000 log groups of Cairn's endpoint
// over the plugin protocol (ListResource, a server stream), as Terraform
// 1.14's "terraform query" asks, with HashiCorp's awscc v1.97 and with
// this plugin: ns/op is the listing's wall time, the metrics the Cloud
// Control calls it made; with each call answered at once, and after a
// 20 ms round trip (ccendpoint's RTT), as a remote endpoint answers. Run
// with -benchtime=1x: the figures are in docs/design/performance.md.
func BenchmarkListResourcePlugins(b *testing.B) {
	const n = 1000
	e, err := ccendpoint.Start(ccendpoint.Options{Addr: "127.0.0.1:0", DataDir: b.TempDir(), Region: "eu-west-1"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = e.Close() })
	for i := range n {
		testendpoint.CreateLogGroup(b, e.URL, fmt.Sprintf("g-%04d", i))
	}
	plugins := map[string]*plugin{
		"hashicorp": startPlugin(b, hashicorpAWSCC(b)),
		"cairn":     startPlugin(b, buildPlugin(b), "CAIRN_PLUGIN_CACHE="+b.TempDir(), "CAIRN_AWSCC_TYPES=AWS::Logs::LogGroup"),
	}
	for _, name := range []string{"hashicorp", "cairn"} {
		configureFor(b, plugins[name], e.URL)
	}
	for _, rtt := range []time.Duration{0, 20 * time.Millisecond} {
		e.SetRTT(rtt)
		for _, name := range []string{"hashicorp", "cairn"} {
			benchListing(b, fmt.Sprintf("%s/rtt=%s", name, rtt), e, plugins[name], n)
		}
	}
}

// benchListing is one sub-benchmark of BenchmarkListResourcePlugins.
func benchListing(b *testing.B, name string, e *ccendpoint.Endpoint, p *plugin, n int) {
	b.Run(name, func(b *testing.B) {
		var calls ccendpoint.Calls
		for b.Loop() {
			e.ResetCalls()
			start := time.Now()
			if got := listed(b, p); len(got) != n {
				b.Fatalf("%d results, want %d", len(got), n)
			}
			b.ReportMetric(time.Since(start).Seconds(), "s/listing")
			calls, _ = e.Calls()
		}
		b.ReportMetric(float64(calls["ListResources"]), "ListResources/op")
		b.ReportMetric(float64(calls["GetResource"]), "GetResource/op")
	})
}

// BenchmarkIdentitySchemasLaunch is Terraform 1.12+'s second question to
// every launch, GetResourceIdentitySchemas over every built-in type:
// cold (no plugin cache: every type translated) and warm (the answer an
// earlier launch kept, replayed). ns/op runs from starting the process to
// the decoded answer.
func BenchmarkIdentitySchemasLaunch(b *testing.B) {
	bin := buildPlugin(b)
	for _, warm := range []bool{false, true} {
		name := "cold"
		if warm {
			name = "warm"
		}
		b.Run(name, func(b *testing.B) {
			cache := b.TempDir()
			if warm {
				startPlugin(b, bin, "CAIRN_PLUGIN_CACHE="+cache).call(b, "GetResourceIdentitySchemas", nil)
			}
			for b.Loop() {
				if !warm {
					cache = b.TempDir()
				}
				var got struct {
					IdentitySchemas map[string]any `json:"identitySchemas"`
				}
				asJSON(b, startPlugin(b, bin, "CAIRN_PLUGIN_CACHE="+cache).call(b, "GetResourceIdentitySchemas", nil), &got)
				if len(got.IdentitySchemas) < 1400 {
					b.Fatalf("%d identity schemas", len(got.IdentitySchemas))
				}
			}
		})
	}
}
