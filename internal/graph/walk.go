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
	if parallelism < 1 {
		parallelism = 1
	}
	w := &walker{g: g, visit: visit, res: Result{Errors: map[int]error{}}}
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
	for i := 0; i < parallelism; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case v := <-ready:
					w.run(ctx, v, ready, done)
				case <-done:
					return
				}
			}
		}()
	}
	wg.Wait()
	return w.res
}

type walker struct {
	g         *Graph
	visit     Visit
	rev       [][]int
	mu        sync.Mutex
	pending   []int
	failed    []bool
	remaining int
	res       Result
}

func (w *walker) run(ctx context.Context, v int, ready chan<- int, done chan struct{}) {
	w.mu.Lock()
	skip := w.failed[v]
	w.mu.Unlock()
	var err error
	if !skip {
		if cerr := ctx.Err(); cerr != nil {
			skip = true
		} else {
			err = w.safeVisit(ctx, v)
		}
	}
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

func (w *walker) safeVisit(ctx context.Context, v int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error (panic) while processing graph vertex %d: %v\n%s", v, r, debug.Stack())
		}
	}()
	return w.visit(ctx, v)
}
