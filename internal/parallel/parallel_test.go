package parallel

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestForEachCallsEveryIndexOnce covers the sizes around the threshold and
// around chunk boundaries, where an off-by-one would skip or repeat an
// index.
func TestForEachCallsEveryIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, MinItems - 1, MinItems, MinItems + 1, 1000, 1023, 10007} {
		calls := make([]atomic.Int32, n)
		ForEach(n, func(i int) { calls[i].Add(1) })
		for i := range calls {
			if got := calls[i].Load(); got != 1 {
				t.Fatalf("n=%d: index %d called %d times", n, i, got)
			}
		}
	}
}

// TestForEachRunsConcurrently fails if ForEach runs a large batch on one
// goroutine: the first call waits for a second one to start.
func TestForEachRunsConcurrently(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	var started atomic.Int32
	release := make(chan struct{})
	ForEach(MinItems, func(i int) {
		switch started.Add(1) {
		case 1:
			select {
			case <-release:
			case <-time.After(10 * time.Second):
				t.Error("no second call started while the first was running")
			}
		case 2:
			close(release)
		}
	})
}

func BenchmarkForEach(b *testing.B) {
	sink := make([]int, 10000)
	for b.Loop() {
		ForEach(len(sink), func(i int) { sink[i] = i * i })
	}
}
