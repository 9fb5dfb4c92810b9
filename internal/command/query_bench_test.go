package command

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"

	"github.com/cairn-iac/cairn/internal/ccendpoint"
)

// BenchmarkQuery1000 is "cairn query" of 1,000 log groups through Cairn's
// Cloud Control endpoint, in process: the seconds one query takes and
// the Cloud Control calls it makes (a ListResources page holds up to 100
// descriptions, so about 10 calls), with each call answered at once and
// after a 20 ms round trip. -generate-config-out adds the resource
// objects, which the same pages carry. Run with -benchtime=1x; the
// figures are in docs/design/performance.md.
func BenchmarkQuery1000(b *testing.B) {
	const n = 1000
	e, err := ccendpoint.Start(ccendpoint.Options{Addr: "127.0.0.1:0", DataDir: b.TempDir(), Region: "us-east-1"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = e.Close() })
	seedLogGroups(b, e.URL, n)
	dir := b.TempDir()
	files := map[string]string{
		"main.tf":          "provider \"awscc\" {\n  region = \"us-east-1\"\n}\n",
		"main.tfquery.hcl": "list \"awscc_logs_log_group\" \"all\" {\n  provider = awscc\n  limit    = 2000\n}\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	env := map[string]string{
		"AWS_ENDPOINT_URL": e.URL, "AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench", "AWS_REGION": "us-east-1",
		"AWS_EC2_METADATA_DISABLED": "true", "HOME": b.TempDir(), "XDG_CACHE_HOME": b.TempDir(), "TF_IN_AUTOMATION": "1",
	}
	// The AWS SDK reads the process environment.
	for k, v := range env {
		b.Setenv(k, v)
	}
	getenv := func(k string) string { return env[k] }
	for _, rtt := range []time.Duration{0, 20 * time.Millisecond} {
		for _, gen := range []bool{false, true} {
			name := fmt.Sprintf("rtt=%s/generate=%v", rtt, gen)
			b.Run(name, func(b *testing.B) {
				e.SetRTT(rtt)
				var calls ccendpoint.Calls
				for i := 0; b.Loop(); i++ {
					args := []string{"-chdir=" + dir, "query", "-no-color"}
					if gen {
						args = append(args, "-generate-config-out="+filepath.Join(b.TempDir(), fmt.Sprintf("gen%d.tf", i)))
					}
					var out, errs bytes.Buffer
					e.ResetCalls()
					start := time.Now()
					if code := Run(args, Streams{Stdout: &out, Stderr: &errs, Getenv: getenv}); code != 0 {
						b.Fatalf("cairn query: exit %d\n%s", code, errs.String())
					}
					b.ReportMetric(time.Since(start).Seconds(), "s/query")
					if got := strings.Count(out.String(), "list.awscc_logs_log_group.all "); got != n {
						b.Fatalf("%d results, want %d", got, n)
					}
					calls, _ = e.Calls()
				}
				total := 0
				for _, c := range calls {
					total += c
				}
				b.ReportMetric(float64(calls["ListResources"]), "ListResources/op")
				b.ReportMetric(float64(calls["GetResource"]), "GetResource/op")
				b.ReportMetric(float64(total), "calls/op")
			})
		}
	}
}

// seedLogGroups creates n log groups on the endpoint at url, eight at a
// time, and waits for each.
func seedLogGroups(tb testing.TB, url string, n int) {
	tb.Helper()
	seedObjects(tb, url, "AWS::Logs::LogGroup", n, func(i int) string { return fmt.Sprintf(`{"LogGroupName":"g-%04d"}`, i) })
}

// seedObjects creates n objects of CloudFormation type typ on the
// endpoint at url, the i-th with desired state state(i), eight at a time,
// and waits for each.
func seedObjects(tb testing.TB, url, typ string, n int, state func(i int) string) {
	tb.Helper()
	client := cloudcontrol.New(cloudcontrol.Options{Region: "us-east-1", BaseEndpoint: aws.String(url), Credentials: aws.AnonymousCredentials{}})
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	next := make(chan int)
	for range 8 {
		wg.Go(func() {
			for i := range next {
				out, err := client.CreateResource(ctx, &cloudcontrol.CreateResourceInput{TypeName: aws.String(typ), DesiredState: aws.String(state(i))})
				if err == nil {
					w := cloudcontrol.NewResourceRequestSuccessWaiter(client, func(o *cloudcontrol.ResourceRequestSuccessWaiterOptions) {
						o.MinDelay, o.MaxDelay = 5*time.Millisecond, 50*time.Millisecond
					})
					err = w.Wait(ctx, &cloudcontrol.GetResourceRequestStatusInput{RequestToken: out.ProgressEvent.RequestToken}, 30*time.Second)
				}
				if err != nil {
					errs <- fmt.Errorf("creating %s %d: %w", typ, i, err)
				}
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	close(errs)
	for err := range errs {
		tb.Fatal(err)
	}
}
