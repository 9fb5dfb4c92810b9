package render

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/plans"
)

// OperationGraphDOT renders a plan's operation graph in Graphviz DOT, in
// the layout terraform graph uses: one node per operation, labelled with
// the object and what apply does to it, and an edge from each operation to
// each one it waits for. Nodes and edges are sorted, so the same plan
// always renders the same text.
func OperationGraphDOT(p *plans.Plan) string {
	var b strings.Builder
	b.WriteString("digraph {\n\tcompound = \"true\"\n\tnewrank = \"true\"\n\tsubgraph \"root\" {\n")
	if p.Graph == nil {
		b.WriteString("\t}\n}\n")
		return b.String()
	}
	names := make([]string, len(p.Graph.Nodes))
	var nodes, edges []string
	for i, n := range p.Graph.Nodes {
		names[i] = p.NodeName(i)
		nodes = append(nodes, fmt.Sprintf("\t\t%q [label = %q, shape = %q]\n", "[root] "+names[i], names[i], opShape(n.Op)))
	}
	for i, n := range p.Graph.Nodes {
		for _, d := range n.Deps {
			edges = append(edges, fmt.Sprintf("\t\t%q -> %q\n", "[root] "+names[i], "[root] "+names[d]))
		}
	}
	sort.Strings(nodes)
	sort.Strings(edges)
	for _, list := range [][]string{nodes, dedupeSorted(edges)} {
		for _, line := range list {
			b.WriteString(line)
		}
	}
	b.WriteString("\t}\n}\n")
	return b.String()
}

func opShape(op plans.Op) string {
	switch op {
	case plans.OpConfigureProvider:
		return "diamond"
	case plans.OpEvalLocal, plans.OpEvalOutput, plans.OpRemoveOutput:
		return "note"
	case plans.OpJoinResource, plans.OpJoinUpdated, plans.OpJoinDestroyed, plans.OpExpand:
		return "ellipse"
	}
	return "box"
}

func dedupeSorted(sorted []string) []string {
	out := sorted[:0]
	for i, s := range sorted {
		if i == 0 || s != sorted[i-1] {
			out = append(out, s)
		}
	}
	return out
}
