package reconciler

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv1 "github.com/crossplane/crossplane-runtime/v2/apis/common/v1"

	"github.com/cairn-iac/cairn/internal/testendpoint"
	"github.com/cairn-iac/cairn/internal/testkube"
	"github.com/cairn-iac/cairn/internal/testprocess"
)

// BenchmarkReconcileLogGroups runs the controller in process against a
// real kube-apiserver and `cairn cloudcontrol serve` (built by the
// benchmark, in its own process) with N managed LogGroups
// (CAIRN_RECONCILE_N, default 1000). It reports the time until every one
// is Ready, then observes them for CAIRN_RECONCILE_INTERVALS poll
// intervals (default 3) of CAIRN_RECONCILE_POLL (default 30s): Cloud
// Control calls per interval by operation (as the endpoint counted them), observations per interval and how many of them planned, CPU
// seconds per observation (this process: the controller, its informers
// and the benchmark's idle waiting), the peak RSS of this process (the
// controller alone: the endpoint's is reported apart) and the heap kept
// after GC. CAIRN_RECONCILE_RATE sets -max-reconcile-rate (default 50).
// It is a benchmark, not a test: run it with
// -run '^$' -bench ReconcileLogGroups -benchtime 1x.
func BenchmarkReconcileLogGroups(b *testing.B) {
	ctrl.SetLogger(logr.Discard())
	s := scaleSettings{n: envInt("CAIRN_RECONCILE_N", 1000), intervals: envInt("CAIRN_RECONCILE_INTERVALS", 3),
		rate: envInt("CAIRN_RECONCILE_RATE", 50), poll: 30 * time.Second}
	if d, err := time.ParseDuration(os.Getenv("CAIRN_RECONCILE_POLL")); err == nil && d > 0 {
		s.poll = d
	}
	cluster, stop, err := testkube.StartMain()
	if err != nil {
		b.Skip(err)
	}
	defer stop()
	ep := testendpoint.Start(b)
	for _, kv := range ep.Env() {
		k, v, _ := strings.Cut(kv, "=")
		b.Setenv(k, v)
	}
	for i := 0; i < b.N; i++ {
		runScale(b, cluster, ep, s, fmt.Sprintf("run%d", i))
	}
}

type scaleSettings struct {
	n, intervals, rate int
	poll               time.Duration
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

func runScale(b *testing.B, cluster *testkube.Cluster, ep *testendpoint.Process, s scaleSettings, ns string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p, kind := logGroupKind(b)
	lc := newLiveController(b, cluster, p, kind, Options{PollInterval: s.poll, MaxReconcileRate: s.rate, CreationGracePeriod: -1})
	kube, cs := lc.kube, lc.cs
	mustCreate(b, kube, providerConfig(), namespace(ns))
	var base runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&base)
	lc.start(ctx)

	ep.ResetCalls(b)
	start := time.Now()
	createAll(b, kube, kind, ns, s.n)
	ready := waitReady(b, lc.mgr.GetCache(), kind, ns, s.n)
	toReady := time.Since(start)
	createCalls := ep.Calls(b)

	// One interval for the last full observations (late initialisation
	// persisted, the first polls) to pass, then the window.
	time.Sleep(s.poll)
	ep.ResetCalls(b)
	obs0, plan0, cpu0 := cs.Stats.Observations.Load(), cs.Stats.Planned.Load(), cpuSeconds()
	window := time.Duration(s.intervals) * s.poll
	time.Sleep(window)
	calls := ep.Calls(b)
	obs, planned, cpu := cs.Stats.Observations.Load()-obs0, cs.Stats.Planned.Load()-plan0, cpuSeconds()-cpu0
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)

	per := float64(s.intervals)
	b.ReportMetric(toReady.Seconds(), "s-to-ready")
	b.ReportMetric(float64(s.n)/toReady.Seconds(), "ready/s")
	b.ReportMetric(float64(obs)/per, "observations/poll")
	b.ReportMetric(float64(planned)/per, "planned/poll")
	for op, c := range calls {
		b.ReportMetric(float64(c)/per, op+"/poll")
	}
	b.ReportMetric(cpu/float64(max(obs, 1))*1000, "CPU-ms/observation")
	b.ReportMetric(float64(testprocess.PeakRSS(0))/(1<<20), "MiB-peak-RSS")
	b.ReportMetric(float64(ep.PeakRSS())/(1<<20), "MiB-endpoint-peak-RSS")
	b.ReportMetric(float64(after.HeapAlloc)/(1<<20), "MiB-heap")
	b.ReportMetric(float64(after.HeapAlloc-min(base.HeapAlloc, after.HeapAlloc))/float64(s.n)/1024, "KiB-heap/resource")
	b.Logf("%d LogGroups (max-reconcile-rate %d): %d Ready after %s, calls to get there %v", s.n, s.rate, ready, toReady.Round(time.Millisecond), createCalls)
	b.Logf("then %d polls of %s: %d observations, %d of them planned, calls %v, %.3f CPU s (%.2f ms/observation)",
		s.intervals, s.poll, obs, planned, calls, cpu, cpu/float64(max(obs, 1))*1000)
	b.Logf("peak RSS %d MiB (endpoint apart: %d MiB); heap %d MiB (was %d MiB); %d workspaces",
		testprocess.PeakRSS(0)>>20, ep.PeakRSS()>>20, after.HeapAlloc>>20, base.HeapAlloc>>20, cs.Workspaces.Len())
}

// cpuSeconds is the CPU time this process has used, user and system.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// createAll creates n LogGroups in ns, eight at a time.
func createAll(b *testing.B, kube client.Client, k *Kind, ns string, n int) {
	var wg sync.WaitGroup
	errs := make(chan error, n)
	sem := make(chan struct{}, 8)
	for i := 0; i < n; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
			defer wg.Done()
			defer func() { <-sem }()
			m := NewManaged(k.GVK.GroupVersion().String(), k.GVK.Kind)
			m.SetNamespace(ns)
			m.SetName(fmt.Sprintf("lg-%05d", i))
			m.Object["spec"] = map[string]any{"forProvider": map[string]any{"retentionInDays": int64(1)}}
			if err := kube.Create(context.Background(), &m.Unstructured); err != nil {
				errs <- err
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
}

// waitReady lists the LogGroups from the controller's own informer cache
// (no copy: the benchmark's process is to be the controller's) until all
// n are Ready, or an hour passes, and returns how many are.
func waitReady(b *testing.B, cache client.Reader, k *Kind, ns string, n int) int {
	deadline := time.Now().Add(60 * time.Minute)
	for {
		list := &unstructured.UnstructuredList{}
		list.SetGroupVersionKind(k.GVK.GroupVersion().WithKind(k.GVK.Kind + "List"))
		if err := cache.List(context.Background(), list, client.InNamespace(ns), client.UnsafeDisableDeepCopy); err != nil {
			b.Fatal(err)
		}
		ready := 0
		for i := range list.Items {
			m := &Managed{list.Items[i]}
			if m.GetCondition(xpv1.TypeReady).Status == "True" {
				ready++
			}
		}
		if ready == n || time.Now().After(deadline) {
			return ready
		}
		time.Sleep(time.Second)
	}
}
