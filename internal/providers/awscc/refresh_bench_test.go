package awscc

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/ccendpoint"
	"github.com/cairn-iac/cairn/internal/enginetest"
	"github.com/cairn-iac/cairn/internal/plans"
)

// BenchmarkNoOpPlanLogGroups plans, with no change to make, 1,000 log
// groups the engine created through the endpoint, each call answered
// after a 100 ms round trip (ccendpoint.Options.RTT), with the list cache
// and without it, at the engine's default parallelism of 10. ns/op is the
// plan's wall time; the metrics are the calls it made. Run with
// -benchtime=1x: the figure is in docs/design/performance.md.
func BenchmarkNoOpPlanLogGroups(b *testing.B) {
	const n = 1000
	const rtt = 100 * time.Millisecond
	corpus := corpusDir(b)
	dir := b.TempDir()
	schema, err := os.ReadFile(filepath.Join(corpus, "AWS_Logs_LogGroup.json"))
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "AWS_Logs_LogGroup.json"), schema, 0o600); err != nil {
		b.Fatal(err)
	}
	e, err := ccendpoint.Start(ccendpoint.Options{Addr: "127.0.0.1:0", DataDir: b.TempDir(), Region: "eu-west-1"})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	main := fmt.Sprintf(`
provider "awscc" {
  region                  = "eu-west-1"
  access_key              = "AKID"
  secret_key              = "SECRET"
  skip_metadata_api_check = true
  endpoints = { cloudcontrolapi = %q }
}
resource "awscc_logs_log_group" "g" {
  count             = %d
  log_group_name    = "bench-${count.index}"
  retention_in_days = 7
}
`, e.URL, n)
	p, err := New(dir)
	if err != nil {
		b.Fatal(err)
	}
	p.testBackoff = &fastPolls
	h, ds := enginetest.New(map[string]string{"main.tf": main})
	if ds.HasErrors() {
		b.Fatal(ds)
	}
	h.Providers[Addr] = p.Factory()
	plan, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		b.Fatal(ds)
	}
	if ds := h.Apply(plan); ds.HasErrors() {
		b.Fatal(ds)
	}
	// The first plan after the apply is slower whatever the reads cost
	// (the endpoint and the heap settle): not measured.
	if _, ds := h.Plan(plans.NormalMode); ds.HasErrors() {
		b.Fatal(ds)
	}
	e.SetRTT(rtt)
	for _, mode := range []string{"no-cache", "cache"} {
		b.Run(mode, func(b *testing.B) {
			pp := p
			if mode == "no-cache" {
				pp = p.WithListCacheTTL(0)
			}
			h.Providers[Addr] = pp.Factory()
			var calls ccendpoint.Calls
			for b.Loop() {
				e.ResetCalls()
				plan, ds := h.Plan(plans.NormalMode)
				if ds.HasErrors() {
					b.Fatal(ds)
				}
				if plan.HasChanges() {
					b.Fatalf("the plan has changes: %v", actions(plan))
				}
				calls, _ = e.Calls()
			}
			b.ReportMetric(float64(calls.Total()), "calls/op")
			b.ReportMetric(float64(calls["GetResource"]), "GetResource/op")
			b.ReportMetric(float64(calls["ListResources"]), "ListResources/op")
		})
	}
}
