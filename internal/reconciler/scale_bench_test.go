package reconciler

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv1 "github.com/crossplane/crossplane-runtime/v2/apis/common/v1"

	"github.com/cairn-iac/cairn/internal/testkube"
)

// BenchmarkReconcileLogGroups runs the controller in process against a real
// kube-apiserver and Cairn's Cloud Control endpoint with N managed
// LogGroups (CAIRN_RECONCILE_N, default 1000): the time until every one is
// Ready, the observations per second once they are (poll 10 s), and the
// heap the process keeps (controller and endpoint together, after GC)
// per resource. It is a benchmark, not a test: run it with
// -run '^$' -bench ReconcileLogGroups -benchtime 1x.
func BenchmarkReconcileLogGroups(b *testing.B) {
	ctrl.SetLogger(logr.Discard())
	n := 1000
	if v, err := strconv.Atoi(os.Getenv("CAIRN_RECONCILE_N")); err == nil && v > 0 {
		n = v
	}
	cluster, stop, err := testkube.StartMain()
	if err != nil {
		b.Skip(err)
	}
	defer stop()
	startEndpoint(b, nil)
	for i := 0; i < b.N; i++ {
		runScale(b, cluster, n, fmt.Sprintf("run%d", i))
	}
}

func runScale(b *testing.B, cluster *testkube.Cluster, n int, ns string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p, kind := logGroupKind(b)
	lc := newLiveController(b, cluster, p, kind, Options{PollInterval: 10 * time.Second, MaxReconcileRate: 50, CreationGracePeriod: -1})
	kube, cs := lc.kube, lc.cs
	mustCreate(b, kube, providerConfig(), namespace(ns))
	var base runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&base)
	lc.start(ctx)

	start := time.Now()
	createAll(b, kube, kind, ns, n)
	ready := waitReady(b, kube, kind, ns, n)
	toReady := time.Since(start)
	before := cs.Stats.Observations.Load()
	window := 30 * time.Second
	time.Sleep(window)
	rate := float64(cs.Stats.Observations.Load()-before) / window.Seconds()
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(toReady.Seconds(), "s-to-ready")
	b.ReportMetric(float64(n)/toReady.Seconds(), "ready/s")
	b.ReportMetric(rate, "observations/s")
	b.ReportMetric(float64(after.HeapAlloc)/(1<<20), "MiB-heap")
	b.ReportMetric(float64(after.HeapAlloc-min(base.HeapAlloc, after.HeapAlloc))/float64(n)/1024, "KiB-heap/resource")
	b.Logf("%d LogGroups: %d Ready after %s; %.1f observations/s at poll 10s; heap %d MiB (was %d MiB); %d workspaces",
		n, ready, toReady.Round(time.Millisecond), rate, after.HeapAlloc>>20, base.HeapAlloc>>20, cs.Workspaces.Len())
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

// waitReady lists the LogGroups until all n are Ready (or an hour
// pass) and returns how many are.
func waitReady(b *testing.B, kube client.Client, k *Kind, ns string, n int) int {
	deadline := time.Now().Add(60 * time.Minute)
	for {
		list := &unstructured.UnstructuredList{}
		list.SetGroupVersionKind(k.GVK.GroupVersion().WithKind(k.GVK.Kind + "List"))
		if err := kube.List(context.Background(), list, client.InNamespace(ns)); err != nil {
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
		time.Sleep(500 * time.Millisecond)
	}
}
