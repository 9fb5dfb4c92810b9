package enginetest

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/applying"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/lang/funcs"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

// BenchmarkApplyDurable applies a plan through the real local backend: every
// instance is durable in the journal (group-committed fsyncs) before it is
// reported done, and the final snapshot is written atomically.
func BenchmarkApplyDurable(b *testing.B) {
	for _, sz := range benchSizes() {
		shape, n := sz.shape, sz.n
		b.Run(fmt.Sprintf("%s/%d", shape, n), func(b *testing.B) {
			h, ds := New(shapeFiles(shape, n))
			if ds.HasErrors() {
				b.Fatal(ds)
			}
			b.ReportAllocs()
			var cpu time.Duration
			for i := 0; b.Loop(); i++ {
				b.StopTimer()
				h.State = emptyState()
				h.Prepared = eval.NewPreparedCache()
				p, ds := h.Plan(plans.NormalMode)
				if ds.HasErrors() {
					b.Fatal(ds)
				}
				mgr := statemgr.NewFilesystem(filepath.Join(b.TempDir(), fmt.Sprintf("s%d.tfstate", i)))
				b.StartTimer()
				c0, _ := rusage()
				rec, err := mgr.BeginApply(nil)
				if err != nil {
					b.Fatal(err)
				}
				ds = applying.Apply(context.Background(), applying.Options{
					Plan: p, Config: h.Config, Providers: providers.NewLibrary(h.Providers), Funcs: funcs.Table(h.Config.SourceDir), State: rec, Prepared: h.Prepared,
				})
				if ds.HasErrors() {
					b.Fatal(ds)
				}
				if _, err := rec.Close(); err != nil {
					b.Fatal(err)
				}
				c1, _ := rusage()
				cpu += c1 - c0
			}
			_, rss := rusage()
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(rss)/(1<<20), "peak-RSS-MiB")
		})
	}
}

// BenchmarkDestroyDurable plans and applies the destruction of count = n
// (OpenTofu deep-copies the resource once per instance here) and of n
// instances behind n/100 module instances, through the real local backend.
func BenchmarkDestroyDurable(b *testing.B) {
	for _, shape := range []string{"count", "modules"} {
		for _, n := range []int{1000, 10000} {
			b.Run(fmt.Sprintf("%s/%d", shape, n), func(b *testing.B) { benchDestroyDurable(b, shape, n) })
		}
	}
}

func benchDestroyDurable(b *testing.B, shape string, n int) {
	h, ds := New(shapeFiles(shape, n))
	if ds.HasErrors() {
		b.Fatal(ds)
	}
	p, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		b.Fatal(ds)
	}
	if ds := h.Apply(p); ds.HasErrors() {
		b.Fatal(ds)
	}
	full := h.State
	b.ReportAllocs()
	var cpu time.Duration
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		h.State = full.DeepCopy()
		mgr := statemgr.NewFilesystem(filepath.Join(b.TempDir(), fmt.Sprintf("d%d.tfstate", i)))
		b.StartTimer()
		c0, _ := rusage()
		destroyDurable(b, h, mgr, n)
		c1, _ := rusage()
		cpu += c1 - c0
	}
	_, rss := rusage()
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(rss)/(1<<20), "peak-RSS-MiB")
	b.ReportMetric(float64(rss)/float64(n), "peak-RSS-B/instance")
}

// destroyDurable plans -destroy against h's state and applies the plan
// through mgr, failing unless the plan deletes all n instances.
func destroyDurable(b *testing.B, h *Harness, mgr *statemgr.Filesystem, n int) {
	p, ds := h.Plan(plans.DestroyMode)
	if ds.HasErrors() {
		b.Fatal(ds)
	}
	deletes := 0
	for _, c := range p.Changes {
		if c.Action == plans.Delete {
			deletes++
		}
	}
	if deletes != n {
		b.Fatalf("destroy plan deletes %d instances, want %d", deletes, n)
	}
	rec, err := mgr.BeginApply(nil)
	if err != nil {
		b.Fatal(err)
	}
	ds = applying.Apply(context.Background(), applying.Options{
		Plan: p, Config: h.Config, Providers: providers.NewLibrary(h.Providers), Funcs: funcs.Table(h.Config.SourceDir), State: rec,
	})
	if ds.HasErrors() {
		b.Fatal(ds)
	}
	if _, err := rec.Close(); err != nil {
		b.Fatal(err)
	}
}
