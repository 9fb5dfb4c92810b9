package refactoring

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/graph"
)

// checkCycles reports each set of statements whose chain comes back to
// where it started. Terraform's diagnostic has no source location; its
// detail lists every statement of the cycle with its position.
func checkCycles(stmts []Statement) diags.Diagnostics {
	g := graph.New(len(stmts))
	for i, js := range chainEdges(stmts) {
		for _, j := range js {
			g.Connect(i, j)
		}
	}
	cycles := g.Cycles()
	// Each cycle lists its statements in source order, and cycles are
	// reported in the order of their first statement.
	for _, c := range cycles {
		slices.Sort(c)
	}
	slices.SortFunc(cycles, func(a, b []int) int { return a[0] - b[0] })
	var ds diags.Diagnostics
	for _, c := range cycles {
		var b strings.Builder
		b.WriteString("The following chained move statements form a cycle, and so there is no final location to move objects to:\n")
		for _, j := range c {
			s := stmts[j]
			fmt.Fprintf(&b, "  - %s: %s → %s\n", posString(s.DeclRange), s.absFrom().WildcardString(), s.absTo().WildcardString())
		}
		b.WriteString("\nA chain of move statements must end with an address that doesn't appear in any other statements, and which typically also refers to an object still declared in the configuration.")
		ds = ds.Append(diags.Errorf("Cyclic dependency in move statements", "%s", b.String()))
	}
	return ds
}
