package refactoring

import "github.com/cairn-iac/cairn/internal/addrs"

// chainOrder orders statements so that in a chain (a to b, b to c) the
// earlier link runs first and an object follows it to the end. Statements
// of shallower modules keep running before deeper ones; otherwise source
// order is kept. Statements in a cycle (which ValidateMoves refuses) run
// last in source order, so the function always terminates.
func chainOrder(stmts []Statement) []Statement {
	n := len(stmts)
	indegree := make([]int, n)
	next := make([][]int, n)
	for i := range stmts {
		for j := range stmts {
			if i != j && chainsInto(stmts[i], stmts[j]) {
				next[i] = append(next[i], j)
				indegree[j]++
			}
		}
	}
	out := make([]Statement, 0, n)
	done := make([]bool, n)
	for progress := true; progress; {
		progress = false
		for i := 0; i < n; i++ {
			if done[i] || indegree[i] > 0 {
				continue
			}
			done[i], progress = true, true
			out = append(out, stmts[i])
			for _, j := range next[i] {
				indegree[j]--
			}
			break
		}
	}
	for i := range stmts {
		if !done[i] {
			out = append(out, stmts[i])
		}
	}
	return out
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
