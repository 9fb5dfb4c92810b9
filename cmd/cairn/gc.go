package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// gcPolicy sets the collector's growth target (GOGC) after each
// collection from the heap that survived it. A cairn command is
// short-lived and allocates most of its memory as garbage (parser tokens,
// intermediate values), so collecting rarely saves a fifth to a third of
// a run's CPU time; but five times the live heap, which GOGC=400 allows,
// is cheap headroom at 10 MB and a waste at 500 MB (100,000 instances
// held 2.2 GB at their peak that way). So the heap may grow to
// max(floor, live × (1 + growth)), within GOGC maxPercent: a run whose
// live heap stays under floor / 5 collects as GOGC=400 would, a larger
// one as often as floor allows, and a very large one as GOGC=growth×100
// would. Collections are cheap while little is live, and headroom given
// while the live heap is small spares collections later, which is why
// the floor is a size, not a ratio.
type gcPolicy struct {
	floor      uint64
	growth     float64
	maxPercent int
}

// defaultGCPolicy: a 160 MiB floor keeps runs of a few thousand
// instances at GOGC=400's speed (10,000 terraform_data instances end a
// plan with about 60 MB live); growth 1 is Go's default headroom for
// large heaps, which at 100,000 instances costs a fifth to a half more
// CPU than GOGC=400 for about a third less memory (performance.md,
// "Scale (issue 26)").
func defaultGCPolicy() gcPolicy {
	return gcPolicy{floor: 160 << 20, growth: 1, maxPercent: 400}
}

// percent is the GOGC for a run whose last collection left live bytes.
func (p gcPolicy) percent(live uint64) int {
	minPercent := int(p.growth * 100)
	if live == 0 {
		return p.maxPercent
	}
	target := max(p.floor, uint64(float64(live)*(1+p.growth)))
	pct := int((target - min(live, target)) * 100 / live)
	return max(minPercent, min(pct, p.maxPercent))
}

// tuneGC sets the collector for a command run: GOGC as gcPolicy says,
// after every collection, under a soft memory limit of a quarter of the
// machine's memory, so a very large configuration collects as often as
// it must rather than running the machine out of memory. GOGC and
// GOMEMLIMIT in the environment win.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		newGCTuner(defaultGCPolicy()).start()
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		if total := totalMemory(); total > 0 {
			debug.SetMemoryLimit(int64(total / 4))
		}
	}
}

// gcTuner sets GOGC after each collection. It learns of a collection
// through a cleanup attached to an object it drops: the runtime offers no
// callback, and the cleanup runs once the collection that found the
// object unreachable is over.
type gcTuner struct {
	policy gcPolicy
	sample []metrics.Sample
	// stopped ends the tuning at the next collection (for tests: a
	// command runs until it exits).
	stopped atomic.Bool
}

func newGCTuner(p gcPolicy) *gcTuner {
	return &gcTuner{policy: p, sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
}

// start sets GOGC for the heap as it is and after every collection.
func (t *gcTuner) start() {
	t.tune()
	t.arm()
}

// arm attaches the next cleanup. The object is 64 bytes so it is not
// batched by the tiny allocator, whose objects may never be cleaned up.
func (t *gcTuner) arm() {
	runtime.AddCleanup(new([64]byte), func(t *gcTuner) {
		if t.stopped.Load() {
			return
		}
		t.tune()
		t.arm()
	}, t)
}

// tune sets GOGC from the live heap the last collection measured (none
// before the first).
func (t *gcTuner) tune() {
	metrics.Read(t.sample)
	live := uint64(0)
	if v := t.sample[0].Value; v.Kind() == metrics.KindUint64 {
		live = v.Uint64()
	}
	debug.SetGCPercent(t.policy.percent(live))
}
