package graph

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCycles(t *testing.T) {
	tests := map[string]struct {
		n     int
		edges [][2]int
		want  [][]int
	}{
		"acyclic chain": {n: 3, edges: [][2]int{{1, 0}, {2, 1}}},
		"two-cycle":     {n: 3, edges: [][2]int{{0, 1}, {1, 0}, {2, 0}}, want: [][]int{{0, 1}}},
		"self loop":     {n: 2, edges: [][2]int{{1, 1}}, want: [][]int{{1}}},
		"two cycles":    {n: 5, edges: [][2]int{{0, 1}, {1, 0}, {2, 3}, {3, 4}, {4, 2}}, want: [][]int{{0, 1}, {2, 3, 4}}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			g := New(tc.n)
			for _, e := range tc.edges {
				g.Connect(e[0], e[1])
			}
			got := g.Cycles()
			for _, c := range got {
				slices.Sort(c)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("-want +got\n%s", diff)
			}
		})
	}
}

func TestWalkOrderAndFailure(t *testing.T) {
	// 0 <- 1 <- 2 ; 3 independent; 4 depends on 1 and 3
	g := New(5)
	g.Connect(1, 0)
	g.Connect(2, 1)
	g.Connect(4, 1)
	g.Connect(4, 3)
	g.Connect(4, 3) // duplicate edge must not stall the walk
	var mu sync.Mutex
	var order []int
	boom := errors.New("boom")
	res := g.Walk(context.Background(), 4, func(_ context.Context, v int) error {
		mu.Lock()
		order = append(order, v)
		mu.Unlock()
		if v == 1 {
			return boom
		}
		return nil
	})
	if !errors.Is(res.Errors[1], boom) || len(res.Errors) != 1 {
		t.Fatalf("errors = %v, want only vertex 1 failed", res.Errors)
	}
	slices.Sort(res.Skipped)
	if diff := cmp.Diff([]int{2, 4}, res.Skipped); diff != "" {
		t.Errorf("skipped -want +got\n%s", diff)
	}
	if slices.Index(order, 0) > slices.Index(order, 1) {
		t.Errorf("vertex 1 ran before its dependency 0: %v", order)
	}
	if !slices.Contains(order, 3) {
		t.Errorf("independent vertex 3 did not run: %v", order)
	}
}

func TestWalkParallelismBound(t *testing.T) {
	g := New(50)
	var cur, peak atomic.Int32
	g.Walk(context.Background(), 3, func(context.Context, int) error {
		n := cur.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		for i := 0; i < 1000; i++ {
			_ = i
		}
		cur.Add(-1)
		return nil
	})
	if peak.Load() > 3 {
		t.Errorf("peak concurrency %d exceeds parallelism 3", peak.Load())
	}
}

func TestWalkRecoversPanic(t *testing.T) {
	g := New(2)
	g.Connect(1, 0)
	res := g.Walk(context.Background(), 1, func(_ context.Context, v int) error {
		if v == 0 {
			panic("bad")
		}
		return nil
	})
	if res.Errors[0] == nil || len(res.Skipped) != 1 {
		t.Fatalf("panic not reported as error with dependents skipped: %+v", res)
	}
}

func BenchmarkWalkChain10000(b *testing.B) {
	g := New(10000)
	for i := 1; i < 10000; i++ {
		g.Connect(i, i-1)
	}
	b.ReportAllocs()
	for b.Loop() {
		g.Walk(context.Background(), 10, func(context.Context, int) error { return nil })
	}
}

func BenchmarkWalkIndependent10000(b *testing.B) {
	g := New(10000)
	b.ReportAllocs()
	for b.Loop() {
		g.Walk(context.Background(), 10, func(context.Context, int) error { return nil })
	}
}

// TestDetach: a detached vertex frees its worker, so other vertices run
// while it waits, and its dependents start only after its wait returns.
func TestDetach(t *testing.T) {
	g := New(3)
	g.Connect(2, 0) // 2 depends on the detached vertex 0
	release := make(chan struct{})
	var mu sync.Mutex
	var order []int
	res := g.Walk(context.Background(), 1, func(ctx context.Context, v int) error {
		mu.Lock()
		order = append(order, v)
		mu.Unlock()
		switch v {
		case 0:
			return Detach(ctx, func() error { <-release; return nil })
		case 1:
			// With one worker, vertex 1 can only run because vertex 0
			// detached; it lets vertex 0 finish.
			close(release)
		}
		return nil
	})
	if len(res.Errors) != 0 {
		t.Fatal(res.Errors)
	}
	if diff := cmp.Diff([]int{0, 1, 2}, order); diff != "" {
		t.Errorf("order -want +got\n%s", diff)
	}
}

func TestDetachError(t *testing.T) {
	g := New(2)
	g.Connect(1, 0)
	boom := errors.New("not durable")
	res := g.Walk(context.Background(), 2, func(ctx context.Context, v int) error {
		if v == 0 {
			return Detach(ctx, func() error { return boom })
		}
		return nil
	})
	if !errors.Is(res.Errors[0], boom) || len(res.Skipped) != 1 {
		t.Fatalf("detached error not reported with dependents skipped: %+v", res)
	}
}

// TestBackground: dependents start before background work finishes, and
// the walk waits for it and reports its error.
func TestBackground(t *testing.T) {
	g := New(2)
	g.Connect(1, 0)
	release := make(chan struct{})
	boom := errors.New("late failure")
	res := g.Walk(context.Background(), 1, func(ctx context.Context, v int) error {
		if v == 0 {
			return Background(ctx, func() error { <-release; return boom })
		}
		close(release) // vertex 1 runs while vertex 0's work is pending
		return nil
	})
	if !errors.Is(res.Errors[0], boom) || len(res.Skipped) != 0 {
		t.Fatalf("background error not reported, or dependents skipped: %+v", res)
	}
}
