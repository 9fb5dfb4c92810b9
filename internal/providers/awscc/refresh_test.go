package awscc

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/cairn-iac/cairn/internal/ccendpoint"
	"github.com/cairn-iac/cairn/internal/enginetest"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/google/go-cmp/cmp"
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
	e, dir := startCountingEndpoint(b, "AWS::Logs::LogGroup")
	p, err := New(dir)
	if err != nil {
		b.Fatal(err)
	}
	p.testBackoff = &fastPolls
	h := countingHarness(b, e, dir, fmt.Sprintf(`
resource "awscc_logs_log_group" "g" {
  count             = %d
  log_group_name    = "bench-${count.index}"
  retention_in_days = 7
}
`, n))
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

// startCountingEndpoint starts an endpoint that counts its calls, and
// returns it with a directory of the given types' schemas for the
// provider.
func startCountingEndpoint(t testing.TB, types ...string) (*ccendpoint.Endpoint, string) {
	t.Helper()
	dir, _ := corpusSchemas(t, types)
	e, err := ccendpoint.Start(ccendpoint.Options{Addr: "127.0.0.1:0", DataDir: t.TempDir(), Region: "eu-west-1"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e, dir
}

// countingHarness is an engine over main whose awscc provider serves the
// schemas in dir against e.
func countingHarness(t testing.TB, e *ccendpoint.Endpoint, dir, main string) *enginetest.Harness {
	t.Helper()
	h, ds := enginetest.New(map[string]string{"main.tf": fmt.Sprintf(`
provider "awscc" {
  region                  = "eu-west-1"
  access_key              = "AKID"
  secret_key              = "SECRET"
  skip_metadata_api_check = true
  endpoints = { cloudcontrolapi = %q }
}
`, e.URL) + main})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	p, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	p.testBackoff = &fastPolls
	h.Providers[Addr] = p.Factory()
	return h
}

// TestEndToEndWriteOnlyFromPages refreshes six Lambda functions whose
// code (write-only) only the configuration knows: reads answered from
// pages keep it from prior state, as GetResource's do, so the plan is
// empty.
func TestEndToEndWriteOnlyFromPages(t *testing.T) {
	e, dir := startCountingEndpoint(t, "AWS::Lambda::Function")
	h := countingHarness(t, e, dir, `
resource "awscc_lambda_function" "f" {
  count         = 6
  function_name = "f${count.index}"
  role          = "arn:aws:iam::123456789012:role/fn"
  runtime       = "python3.12"
  handler       = "index.handler"
  code          = { zip_file = "def handler(event, context): return ${count.index}" }
}
`)
	mustApply(t, h, plans.NormalMode)
	e.ResetCalls()
	if p := mustPlan(t, h, plans.NormalMode); p.HasChanges() {
		t.Fatalf("plan after apply has changes: %v", actions(p))
	}
	if calls, _ := e.Calls(); calls["ListResources"] == 0 || calls["GetResource"] >= 6 {
		t.Errorf("calls %s: want reads answered from pages", calls)
	}
	f, _ := stateAttrs(t, h.State, "awscc_lambda_function.f[5]")
	if code, _ := f["code"].(map[string]any); code["zip_file"] != "def handler(event, context): return 5" {
		t.Errorf("code after the refresh: %v", f["code"])
	}
}

// TestEndToEndRefreshFromPages refreshes 30 log groups through the engine
// after two changed behind its back (one's retention edited, one
// deleted): the plan sees both, as per-object reads would, while most
// reads are answered from ListResources pages.
func TestEndToEndRefreshFromPages(t *testing.T) {
	e, dir := startCountingEndpoint(t, "AWS::Logs::LogGroup")
	h := countingHarness(t, e, dir, `
resource "awscc_logs_log_group" "g" {
  count             = 30
  log_group_name    = "g${count.index}"
  retention_in_days = 7
}
`)
	mustApply(t, h, plans.NormalMode)

	client := cloudcontrol.New(cloudcontrol.Options{Region: "eu-west-1", BaseEndpoint: aws.String(e.URL), Credentials: aws.AnonymousCredentials{}})
	ctx := context.Background()
	rt := &runtime{api: client, poll: fastPolls, stop: ctx}
	out, err := client.UpdateResource(ctx, &cloudcontrol.UpdateResourceInput{TypeName: aws.String("AWS::Logs::LogGroup"), Identifier: aws.String("g5"),
		PatchDocument: aws.String(`[{"op":"replace","path":"/RetentionInDays","value":30}]`)})
	if err == nil {
		_, err = rt.await(ctx, out.ProgressEvent)
	}
	if err != nil {
		t.Fatal(err)
	}
	del, err := client.DeleteResource(ctx, &cloudcontrol.DeleteResourceInput{TypeName: aws.String("AWS::Logs::LogGroup"), Identifier: aws.String("g7")})
	if err == nil {
		_, err = rt.await(ctx, del.ProgressEvent)
	}
	if err != nil {
		t.Fatal(err)
	}

	e.ResetCalls()
	got := actions(mustPlan(t, h, plans.NormalMode))
	want := []string{"awscc_logs_log_group.g[5] update", "awscc_logs_log_group.g[7] create"}
	if diff := cmp.Diff(want, got, cmpSorted); diff != "" {
		t.Errorf("plan after the changes (-want +got):\n%s", diff)
	}
	calls, _ := e.Calls()
	if calls["ListResources"] == 0 || calls["GetResource"] > 10 {
		t.Errorf("calls %s: want the reads answered from pages", calls)
	}
}
