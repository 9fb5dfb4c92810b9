package plugins

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/cfnsources"
	"github.com/cairn-iac/cairn/internal/pulumi/importfile"
	"github.com/cairn-iac/cairn/internal/testendpoint"
	"github.com/cairn-iac/cairn/internal/testprocess"
)

// BenchmarkImportFile builds the bulk import file of N log groups
// (CAIRN_IMPORTFILE_N, default 1000) against `cairn cloudcontrol serve`
// in its own process: one listing, and one import by identity per object
// for its ID. It reports the Cloud Control calls made by operation (the
// endpoint counts them), the heap allocated, and this process's peak RSS
// (awscc's LogGroup schema loaded included). Run it with
// -run '^$' -bench ImportFile -benchtime 1x.
func BenchmarkImportFile(b *testing.B) {
	n := 1000
	if v, err := strconv.Atoi(os.Getenv("CAIRN_IMPORTFILE_N")); err == nil && v > 0 {
		n = v
	}
	ep := testendpoint.Start(b)
	for _, kv := range ep.Env() {
		k, v, _ := strings.Cut(kv, "=")
		b.Setenv(k, v)
	}
	createParallel(b, ep.URL, n)
	src := cfnsources.FromEnv(os.Getenv, cfnsources.InWorkingDir)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ep.ResetCalls(b)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		f, ds := AWSCCImportFile(context.Background(), src, "AWS::Logs::LogGroup", importfile.Options{Types: []string{"awscc:logs/logGroup:LogGroup"}})
		wall := time.Since(start)
		runtime.ReadMemStats(&after)
		if ds.HasErrors() {
			b.Fatal(ds.Err())
		}
		if len(f.Resources) != n {
			b.Fatalf("%d resources, want %d", len(f.Resources), n)
		}
		calls := ep.Calls(b)
		for op, c := range calls {
			b.ReportMetric(float64(c), op+"/op")
		}
		b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/(1<<20), "MiB-alloc/op")
		b.Logf("import file of %d log groups: %s, %d Cloud Control calls (%s)", n, wall.Round(time.Millisecond), calls.Total(), calls)
	}
	b.ReportMetric(float64(testprocess.PeakRSS(0))/(1<<20), "MiB-peak-RSS")
}

// createParallel makes n log groups bench-00000... on the endpoint, 16 at
// a time.
func createParallel(b *testing.B, url string, n int) {
	b.Helper()
	var wg sync.WaitGroup
	work := make(chan int)
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				createLogGroups(b, url, map[string]int{fmt.Sprintf("bench-%05d", i): 7})
			}
		}()
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
}
