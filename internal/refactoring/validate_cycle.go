package refactoring

import (
	"fmt"
	"strings"

	"github.com/cairn-iac/cairn/internal/diags"
)

// checkCycles reports each set of statements whose chain comes back to
// where it started. Terraform's diagnostic has no source location; its
// detail lists every statement of the cycle with its position.
func checkCycles(stmts []Statement) diags.Diagnostics {
	var ds diags.Diagnostics
	reported := make([]bool, len(stmts))
	for i := range stmts {
		if reported[i] {
			continue
		}
		cycle := cycleThrough(stmts, i)
		if cycle == nil {
			continue
		}
		var b strings.Builder
		b.WriteString("The following chained move statements form a cycle, and so there is no final location to move objects to:\n")
		for j := range stmts {
			if cycle[j] {
				reported[j] = true
				s := stmts[j]
				fmt.Fprintf(&b, "  - %s: %s → %s\n", posString(s.DeclRange), s.absFrom().WildcardString(), s.absTo().WildcardString())
			}
		}
		b.WriteString("\nA chain of move statements must end with an address that doesn't appear in any other statements, and which typically also refers to an object still declared in the configuration.")
		ds = ds.Append(diags.Errorf("Cyclic dependency in move statements", "%s", b.String()))
	}
	return ds
}

// cycleThrough returns the statements on chains that lead from statement
// start back to it, or nil when none does.
func cycleThrough(stmts []Statement, start int) map[int]bool {
	// reach[i] is true when i can be reached from start; back[i] when
	// start can be reached from i. The cycle is their intersection.
	reach := reachable(stmts, start, func(a, b int) bool { return chainsInto(stmts[a], stmts[b]) })
	if !reach[start] {
		return nil
	}
	back := reachable(stmts, start, func(a, b int) bool { return chainsInto(stmts[b], stmts[a]) })
	cycle := map[int]bool{}
	for i := range stmts {
		if reach[i] && back[i] {
			cycle[i] = true
		}
	}
	return cycle
}

// reachable returns the statements reachable in one or more steps of
// edge from start.
func reachable(stmts []Statement, start int, edge func(a, b int) bool) map[int]bool {
	seen := map[int]bool{}
	stack := []int{start}
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for j := range stmts {
			if !seen[j] && edge(cur, j) {
				seen[j] = true
				stack = append(stack, j)
			}
		}
	}
	return seen
}
