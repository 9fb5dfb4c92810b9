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

type detachKey struct{}

// detacher is what Detach and Background find in a visit's context.
type detacher struct {
	w   *walker
	v   int
	set bool
	// background: the vertex completes now and fn only finishes later.
	background bool
	fn         func() error
}

// Detach lets a visit finish its vertex later: the visit returns (freeing
// its worker for other vertices, so at most parallelism visits still run
// at once) and the vertex completes when wait returns, with wait's error
// as its result. Dependents start only after that. A visit calls Detach at
// most once, as its last step, and then returns nil. Outside a walk,
// Detach runs wait at once and returns its error.
func Detach(ctx context.Context, wait func() error) error {
	d, ok := ctx.Value(detachKey{}).(*detacher)
	if !ok {
		return wait()
	}
	d.set, d.fn = true, wait
	return nil
}

// Background lets a visit leave work running after its vertex completes:
// dependents start at once, wait runs in the background, and the walk
// returns only after every wait has returned. An error from wait is
// recorded as the vertex's error, but cannot stop dependents that already
// started. A visit calls Background at most once, as its last step, and
// then returns nil. Outside a walk, Background runs wait at once.
func Background(ctx context.Context, wait func() error) error {
	d, ok := ctx.Value(detachKey{}).(*detacher)
	if !ok {
		return wait()
	}
	d.set, d.background, d.fn = true, true, wait
	return nil
}

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
	w.detached.Wait()
	return w.res
}

type walker struct {
	g         *Graph
	detached  sync.WaitGroup
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
			d := &detacher{w: w, v: v}
			err = w.safeVisit(context.WithValue(ctx, detachKey{}, d), v)
			if d.set && err == nil && d.background {
				w.detached.Add(1)
				go func() {
					defer w.detached.Done()
					if berr := d.fn(); berr != nil {
						w.mu.Lock()
						w.res.Errors[v] = berr
						w.mu.Unlock()
					}
				}()
			} else if d.set && err == nil {
				w.detached.Add(1)
				go func() {
					defer w.detached.Done()
					w.complete(v, false, d.fn(), ready, done)
				}()
				return
			}
		}
	}
	w.complete(v, skip, err, ready, done)
}

// complete records a vertex's outcome and readies its dependents.
func (w *walker) complete(v int, skip bool, err error, ready chan<- int, done chan struct{}) {
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
