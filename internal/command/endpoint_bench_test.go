package command

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/ccendpoint"
)

// BenchmarkApplyThroughEndpoint creates N log groups through a real Cloud
// Control endpoint (loopback, durable store, emulator) with the cairn
// command line at -parallelism=50, and destroys them between iterations
// (untimed). Besides the time of an apply it reports how long after each
// create finished the provider's poll noticed it (p50, p99), and the
// endpoint calls answered per second of apply.
func BenchmarkApplyThroughEndpoint(b *testing.B) {
	for _, n := range []int{20, 500} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchApplyThroughEndpoint(b, n) })
	}
}

func benchApplyThroughEndpoint(b *testing.B, n int) {
	h, srv, db, err := ccendpoint.NewHandler(ccendpoint.Options{DataDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	defer srv.Close()
	var calls atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()
	work := b.TempDir()
	config := fmt.Sprintf(`provider "awscc" {
  region = "us-east-1"
}
resource "awscc_logs_log_group" "g" {
  count          = %d
  log_group_name = "bench-${count.index}"
}
`, n)
	if err := os.WriteFile(filepath.Join(work, "main.tf"), []byte(config), 0o600); err != nil {
		b.Fatal(err)
	}
	env := map[string]string{"AWS_ENDPOINT_URL": ts.URL, "AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench",
		"AWS_REGION": "us-east-1", "AWS_EC2_METADATA_DISABLED": "true", "HOME": work}
	run := func(args ...string) {
		var out bytes.Buffer
		s := Streams{Stdout: &out, Stderr: &out, Getenv: func(k string) string { return env[k] },
			Environ: func() []string { return nil }}
		if code := Run(append([]string{"-chdir=" + work, "-no-color"}, args...), s); code != 0 {
			b.Fatalf("cairn %v exited %d:\n%s", args, code, out.String())
		}
	}
	// The provider reads AWS_* through the SDK, from the process
	// environment.
	for k, v := range env {
		b.Setenv(k, v)
	}
	var applyTime time.Duration
	var applyCalls int64
	for b.Loop() {
		start, before := time.Now(), calls.Load()
		run("apply", "-auto-approve", "-parallelism=50")
		applyTime += time.Since(start)
		applyCalls += calls.Load() - before
		b.StopTimer()
		run("destroy", "-auto-approve", "-parallelism=50")
		b.StartTimer()
	}
	notices := srv.NoticeDelays()
	slices.Sort(notices)
	if len(notices) > 0 {
		b.ReportMetric(float64(notices[len(notices)/2].Milliseconds()), "notice-p50-ms")
		b.ReportMetric(float64(notices[len(notices)*99/100].Milliseconds()), "notice-p99-ms")
	}
	b.ReportMetric(float64(applyCalls)/applyTime.Seconds(), "calls/s")
}
