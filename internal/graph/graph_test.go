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

// TestWalkResults: each vertex's result (a failed one's too) is stored
// before its dependents start, so a visit reads its dependencies' results
// without a lock; skipped vertices keep the zero result. Run with -race.
func TestWalkResults(t *testing.T) {
	// A diamond per level: 1 and 2 read 0; 3 reads 1 and 2; 4 fails and
	// 5, which depends on it, is skipped; 6..199 form a chain.
	const n = 200
	g := New(n)
	g.Connect(1, 0)
	g.Connect(2, 0)
	g.Connect(3, 1)
	g.Connect(3, 2)
	g.Connect(5, 4)
	for v := 7; v < n; v++ {
		g.Connect(v, v-1)
	}
	boom := errors.New("boom")
	results := make([]int, n)
	res := WalkResults(context.Background(), g, 4, results, func(_ context.Context, v int) (int, error) {
		sum := 1
		for _, d := range g.Deps(v) {
			sum += results[d]
		}
		if v == 4 {
			return -1, boom
		}
		return sum, nil
	})
	if !errors.Is(res.Errors[4], boom) || len(res.Errors) != 1 {
		t.Fatalf("errors = %v, want only vertex 4 failed", res.Errors)
	}
	if diff := cmp.Diff([]int{5}, res.Skipped); diff != "" {
		t.Errorf("skipped -want +got\n%s", diff)
	}
	want := map[int]int{0: 1, 1: 2, 2: 2, 3: 5, 4: -1, 5: 0, 6: 1, 7: 2, n - 1: n - 6}
	for v, w := range want {
		if results[v] != w {
			t.Errorf("results[%d] = %d, want %d", v, results[v], w)
		}
	}
}

// TestWalkResultsPanic: a visit that panics leaves the zero result.
func TestWalkResultsPanic(t *testing.T) {
	results := []string{"untouched"}
	res := WalkResults(context.Background(), New(1), 1, results, func(context.Context, int) (string, error) {
		panic("bad")
	})
	if res.Errors[0] == nil || results[0] != "" {
		t.Fatalf("panic not reported with a zero result: %+v %q", res, results[0])
	}
}

func BenchmarkWalkResultsIndependent10000(b *testing.B) {
	g := New(10000)
	results := make([]int, 10000)
	b.ReportAllocs()
	for b.Loop() {
		WalkResults(context.Background(), g, 10, results, func(_ context.Context, v int) (int, error) { return v, nil })
	}
}
