package graph

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
)

// Visit runs one vertex. A non-nil error marks the vertex failed: vertices
// that depend on it (directly or not) are skipped, while independent
// branches go on.
type Visit func(ctx context.Context, v int) error

// VisitResult runs one vertex and returns what it produced. The error has
// Visit's meaning; the result is kept whether or not there is one, so a
// failed vertex can still hand over what it did before it failed.
type VisitResult[R any] func(ctx context.Context, v int) (R, error)

// Result reports the outcome of a walk.
type Result struct {
	// Errors holds each failed vertex's error, by vertex.
	Errors map[int]error
	// Skipped lists vertices not run because a dependency failed or the
	// context was cancelled.
	Skipped []int
}

// Walk runs visit for every vertex after all its dependencies have
// succeeded, with at most parallelism visits at once (parallelism < 1 means
// 1). The graph must be acyclic (check Cycles first). A panic in visit is
// recovered and reported as that vertex's error.
//
// Scheduling is linear in vertices plus edges: each completion decrements
// its dependents' counters, and a vertex becomes ready at zero.
func (g *Graph) Walk(ctx context.Context, parallelism int, visit Visit) Result {
	return WalkResults(ctx, g, parallelism, nil, func(ctx context.Context, v int) (struct{}, error) {
		return struct{}{}, visit(ctx, v)
	})
}

// WalkResults is Walk for visits that return their result instead of
// writing it somewhere shared. The walker stores what visit returns for
// vertex v in results[v] before any dependent of v starts, so:
//
//   - a visit may read the results of the vertices it depends on,
//     directly or not, from results, without a lock: they are complete
//     and no longer written;
//   - it must read no other element, and write none: other vertices'
//     results are being stored concurrently;
//   - once WalkResults returns, results holds every vertex's result (the
//     zero R for skipped vertices, and for a visit that panicked), for
//     one goroutine to fold together, in vertex order if the outcome must
//     not depend on scheduling.
//
// results must have g.Len() elements, or be nil to discard results; any
// other length is the caller's bug, and WalkResults panics.
func WalkResults[R any](ctx context.Context, g *Graph, parallelism int, results []R, visit VisitResult[R]) Result {
	if parallelism < 1 {
		parallelism = 1
	}
	if results != nil && len(results) != len(g.deps) {
		panic(fmt.Sprintf("graph: %d results for %d vertices", len(results), len(g.deps)))
	}
	w := &walker[R]{visit: visit, results: results, res: Result{Errors: map[int]error{}}}
	w.rev, w.pending = g.dependents()
	w.failed = make([]bool, len(g.deps))
	ready := make(chan int, len(g.deps))
	for v, n := range w.pending {
		if n == 0 {
			ready <- v
		}
	}
	w.remaining = len(g.deps)
	if w.remaining == 0 {
		return w.res
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range parallelism {
		wg.Go(func() {
			for {
				select {
				case v := <-ready:
					w.run(ctx, v, ready, done)
				case <-done:
					return
				}
			}
		})
	}
	wg.Wait()
	return w.res
}

// walker holds one walk. mu guards the scheduling state (pending,
// failed, remaining) and res; results[v] is written by the worker that
// ran v, before complete publishes v under mu.
type walker[R any] struct {
	visit     VisitResult[R]
	results   []R
	rev       [][]int
	mu        sync.Mutex
	pending   []int
	failed    []bool
	remaining int
	res       Result
}

func (w *walker[R]) run(ctx context.Context, v int, ready chan<- int, done chan struct{}) {
	w.mu.Lock()
	skip := w.failed[v]
	w.mu.Unlock()
	if !skip && ctx.Err() != nil {
		skip = true
	}
	var err error
	if !skip {
		var r R
		r, err = w.safeVisit(ctx, v)
		if w.results != nil {
			w.results[v] = r
		}
	}
	w.complete(v, skip, err, ready, done)
}

// complete records a vertex's outcome and readies its dependents.
func (w *walker[R]) complete(v int, skip bool, err error, ready chan<- int, done chan struct{}) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if skip {
		w.res.Skipped = append(w.res.Skipped, v)
	} else if err != nil {
		w.res.Errors[v] = err
	}
	for _, d := range w.rev[v] {
		if skip || err != nil {
			w.failed[d] = true
		}
		w.pending[d]--
		if w.pending[d] == 0 {
			ready <- d
		}
	}
	w.remaining--
	if w.remaining == 0 {
		close(done)
	}
}

func (w *walker[R]) safeVisit(ctx context.Context, v int) (r R, err error) {
	defer func() {
		if p := recover(); p != nil {
			var zero R
			r, err = zero, fmt.Errorf("internal error (panic) while processing graph vertex %d: %v\n%s", v, p, debug.Stack())
		}
	}()
	return w.visit(ctx, v)
}
