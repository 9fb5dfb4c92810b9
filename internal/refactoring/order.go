package refactoring

import (
	"container/heap"

	"github.com/cairn-iac/cairn/internal/addrs"
)

// chainOrder orders statements so that in a chain (a to b, b to c) the
// earlier link runs first and an object follows it to the end. Statements
// of shallower modules keep running before deeper ones; otherwise source
// order is kept: of the statements whose predecessors have run, the first
// in source order runs next. Statements in a cycle (which ValidateMoves
// refuses) run last in source order, so the function always terminates.
func chainOrder(stmts []Statement) []Statement {
	n := len(stmts)
	next := chainEdges(stmts)
	indegree := make([]int, n)
	for i, js := range next {
		for _, j := range js {
			if j != i {
				indegree[j]++
			}
		}
	}
	ready := &intHeap{}
	for i := range n {
		if indegree[i] == 0 {
			heap.Push(ready, i)
		}
	}
	out := make([]Statement, 0, n)
	done := make([]bool, n)
	for ready.Len() > 0 {
		i := heap.Pop(ready).(int)
		done[i] = true
		out = append(out, stmts[i])
		for _, j := range next[i] {
			if j == i {
				continue
			}
			if indegree[j]--; indegree[j] == 0 {
				heap.Push(ready, j)
			}
		}
	}
	for i := range stmts {
		if !done[i] {
			out = append(out, stmts[i])
		}
	}
	return out
}

// chainEdges returns, for each statement i, the statements j that
// continue its move (chainsInto(i, j)), i itself included when it does, in
// increasing j. It indexes sources, so it costs time linear in the
// statements and the edges rather than in their pairs.
func chainEdges(stmts []Statement) [][]int {
	froms := newEndpointIndex()
	for j, s := range stmts {
		froms.add(s.absFrom(), j)
	}
	next := make([][]int, len(stmts))
	for i, s := range stmts {
		to := s.absTo()
		froms.overlapping(to, func(j int) {
			if overlaps(to, stmts[j].absFrom()) {
				next[i] = append(next[i], j)
			}
		})
	}
	return next
}

// intHeap is a min-heap of statement indices.
type intHeap []int

func (h intHeap) Len() int           { return len(h) }
func (h intHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h intHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *intHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *intHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// chainsInto reports whether a's destination is (or contains, or is part
// of) b's source, seen from the root: b then continues a's move.
func chainsInto(a, b Statement) bool {
	return overlaps(a.absTo(), b.absFrom())
}

// overlaps reports whether two endpoints of one module can name the same
// object: equal, or a whole resource or module call and one of its
// instances.
func overlaps(x, y addrs.MoveEndpoint) bool {
	if x.IsModule() != y.IsModule() {
		return false
	}
	if x.Equal(y) {
		return true
	}
	if x.Instance && y.Instance {
		return false
	}
	if !x.IsModule() {
		return x.Path.Equal(y.Path) && *x.Resource == *y.Resource
	}
	n := len(x.Path)
	return n == len(y.Path) && x.Path[:n-1].Equal(y.Path[:n-1]) && x.Path[n-1].Name == y.Path[n-1].Name
}
