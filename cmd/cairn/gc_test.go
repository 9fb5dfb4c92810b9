package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestGCPolicyPercent(t *testing.T) {
	const mib = 1 << 20
	p := gcPolicy{floor: 160 * mib, growth: 1, maxPercent: 400}
	cases := map[string]struct {
		reason string
		live   uint64
		want   int
	}{
		"before any collection": {live: 0, want: 400},
		"small heap": {
			reason: "five times 10 MiB is under the floor: GOGC=400's speed",
			live:   10 * mib, want: 400,
		},
		"floor": {
			reason: "the heap may grow to the floor",
			live:   64 * mib, want: 150,
		},
		"large heap": {
			reason: "past half the floor, Go's default headroom",
			live:   500 * mib, want: 100,
		},
		"just under half the floor": {live: 79 * mib, want: 102},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := p.percent(tc.live); got != tc.want {
				t.Errorf("%s\npercent(%d MiB) = %d, want %d", tc.reason, tc.live/mib, got, tc.want)
			}
		})
	}
}

// TestGCTunerFollowsCollections: after a collection, GOGC is what the
// policy says for the heap that survived it.
func TestGCTunerFollowsCollections(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	tuner := newGCTuner(gcPolicy{floor: 0, growth: 0.37, maxPercent: 400})
	defer tuner.stopped.Store(true)
	tuner.arm() // not start: GOGC stays 100 until a collection
	deadline := time.Now().Add(10 * time.Second)
	for gogc() != 37 {
		if time.Now().After(deadline) {
			t.Fatalf("GOGC is %d after collections, want 37", gogc())
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}

// gogc returns the current GOGC.
func gogc() int {
	v := debug.SetGCPercent(100)
	debug.SetGCPercent(v)
	return v
}
