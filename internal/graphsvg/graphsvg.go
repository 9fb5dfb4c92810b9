package graphsvg

import (
	"context"
	"fmt"
	"sort"
)

// Node is one thing drawn.
type Node struct {
	// ID is unique and stable; the SVG element id is "node-"+ID.
	ID string
	// Label is the text shown: a resource instance address,
	// "provider[...]", "output.x". An empty Label shows the ID.
	Label string
	// Kind is the CSS class suffix: "create", "update", "replace",
	// "delete", "read", "noop", "provider", "output" or "other".
	Kind string
	// Group is what this node folds into when the graph is too large to
	// draw node by node, e.g. the resource's configuration address
	// ("module.a.aws_x.y") for every instance of it. An empty Group
	// folds the node by its Label.
	Group string
}

// Edge says From waits for To (To runs first), as in the plan's
// operation graph.
type Edge struct{ From, To string }

// Graph is what Draw lays out. The order of Nodes and Edges does not
// matter: Draw sorts them, so the drawing depends on the graph only.
type Graph struct {
	Nodes []Node
	Edges []Edge
}

// DefaultMaxNodes is the number of drawn nodes above which Draw folds
// when Options.MaxNodes is 0: a drawing of a few hundred nodes is still
// one a reader can follow, and a browser shows it without strain.
const DefaultMaxNodes = 400

// Options tune a drawing.
type Options struct {
	// MaxNodes is the most nodes drawn; above it, nodes sharing a Group
	// fold into one drawn node (see the package comment). 0 means
	// DefaultMaxNodes.
	MaxNodes int
}

// Drawing is a laid-out graph as SVG.
type Drawing struct {
	// SVG is one <svg> element with viewBox, width and height; no
	// scripts, no external references.
	SVG string
	// Folded is true when nodes were folded into groups.
	Folded bool
	// Members maps each drawn node's ID to the IDs of the nodes it
	// stands for, sorted (the node itself when it was not folded).
	Members map[string][]string
	// Width and Height are the drawing's size in SVG user units.
	Width, Height float64
}

// Draw lays g out in ranks and returns it as SVG. It fails when g names a
// node twice or an edge names a node g lacks, or when ctx ends.
func Draw(ctx context.Context, g Graph, opts Options) (*Drawing, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	nodes, edges, err := normalize(g)
	if err != nil {
		return nil, err
	}
	limit := opts.MaxNodes
	if limit <= 0 {
		limit = DefaultMaxNodes
	}
	drawn := fold(nodes, edges, limit)
	lay, err := layout(ctx, drawn)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	svg := writeSVG(drawn, lay)
	return &Drawing{
		SVG:     svg,
		Folded:  drawn.folded,
		Members: drawn.members(),
		Width:   lay.width,
		Height:  lay.height,
	}, nil
}

// normalize sorts the graph, checks that ids are unique and that every
// edge joins two of its nodes, and drops repeated edges and self-loops,
// which a layered drawing has no place for.
func normalize(g Graph) ([]Node, []Edge, error) {
	nodes := append([]Node(nil), g.Nodes...)
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].ID < nodes[j].ID })
	known := make(map[string]bool, len(nodes))
	for _, n := range nodes {
		if known[n.ID] {
			return nil, nil, fmt.Errorf("graphsvg: node %q appears twice", n.ID)
		}
		known[n.ID] = true
	}
	edges := make([]Edge, 0, len(g.Edges))
	for _, e := range g.Edges {
		for _, id := range []string{e.From, e.To} {
			if !known[id] {
				return nil, nil, fmt.Errorf("graphsvg: edge %q → %q names %q, which is not a node", e.From, e.To, id)
			}
		}
		if e.From != e.To {
			edges = append(edges, e)
		}
	}
	return nodes, sortEdges(edges), nil
}

// sortEdges sorts edges by From, then To, and removes repeats.
func sortEdges(edges []Edge) []Edge {
	sort.Slice(edges, func(i, j int) bool {
		if edges[i].From != edges[j].From {
			return edges[i].From < edges[j].From
		}
		return edges[i].To < edges[j].To
	})
	out := edges[:0]
	for i, e := range edges {
		if i == 0 || e != edges[i-1] {
			out = append(out, e)
		}
	}
	return out
}
