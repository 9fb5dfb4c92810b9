package graphfmt

import (
	"bufio"
	"fmt"
	"io"
)

// WriteDOT draws g in Graphviz DOT as terraform graph does: every node in
// a subgraph named "root", its id prefixed "[root] ", its label and shape
// as attributes, and an arrow from each dependent to its dependency.
func WriteDOT(w io.Writer, g *Graph) error {
	b := bufio.NewWriter(w)
	b.WriteString("digraph {\n\tcompound = \"true\"\n\tnewrank = \"true\"\n\tsubgraph \"root\" {\n")
	for _, n := range g.Nodes {
		fmt.Fprintf(b, "\t\t%q [label = %q, shape = %q]\n", dotID(n), n.Label, n.Shape.dotName())
	}
	for _, e := range g.Edges {
		fmt.Fprintf(b, "\t\t%q -> %q\n", dotID(g.Nodes[e.From]), dotID(g.Nodes[e.To]))
	}
	b.WriteString("\t}\n}\n")
	return b.Flush()
}

// dotID is the node's id in DOT: Terraform names every node by its module
// ("[root]" for the root module's graph) and its own name.
func dotID(n Node) string { return "[root] " + n.ID }
