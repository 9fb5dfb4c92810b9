package graphfmt

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Shape is how a node is drawn. Each writer maps it to its own notation.
type Shape int

// The shapes of terraform graph's DOT: resources and operations are boxes,
// providers diamonds, values (locals, outputs, checks) notes, and the
// bookkeeping nodes of an operation graph (expand, join) ellipses.
const (
	Box Shape = iota
	Diamond
	Note
	Ellipse
)

// dotName is the shape's name in DOT.
func (s Shape) dotName() string {
	switch s {
	case Diamond:
		return "diamond"
	case Note:
		return "note"
	case Ellipse:
		return "ellipse"
	}
	return "box"
}

// Node is one object of a graph.
type Node struct {
	// ID names the node uniquely within its graph.
	ID    string
	Label string
	Shape Shape
}

// Edge says that the node From depends on the node To (indexes into
// Graph.Nodes): drawn as an arrow from the dependent to its dependency.
type Edge struct {
	From, To int
}

// Graph is what a writer draws. The writers keep the order of Nodes and
// Edges; SortNodes and SortEdges make it canonical.
type Graph struct {
	Nodes []Node
	Edges []Edge
}

// sortKey orders ids as their Go-quoted forms compare, which is the order
// of the lines of Cairn's DOT (a quoted id starts each line), so sorting
// here keeps that output as it has always been.
func sortKey(id string) string { return strconv.Quote(id) }

// SortNodes puts the nodes in canonical order (by id, then label and
// shape) and renumbers the edges to match.
func (g *Graph) SortNodes() {
	order := make([]int, len(g.Nodes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		na, nb := g.Nodes[a], g.Nodes[b]
		return cmp.Or(
			strings.Compare(sortKey(na.ID), sortKey(nb.ID)),
			strings.Compare(sortKey(na.Label), sortKey(nb.Label)),
			strings.Compare(na.Shape.dotName(), nb.Shape.dotName()))
	})
	at := make([]int, len(order)) // old index -> new index
	nodes := make([]Node, len(order))
	for newIdx, old := range order {
		at[old] = newIdx
		nodes[newIdx] = g.Nodes[old]
	}
	g.Nodes = nodes
	for i, e := range g.Edges {
		g.Edges[i] = Edge{From: at[e.From], To: at[e.To]}
	}
}

// SortEdges puts the edges in canonical order (by the ids of the
// dependent, then of the dependency) and drops repeats: two edges between
// nodes with the same ids draw one arrow.
func (g *Graph) SortEdges() {
	key := func(e Edge) string { return sortKey(g.Nodes[e.From].ID) + " " + sortKey(g.Nodes[e.To].ID) }
	slices.SortStableFunc(g.Edges, func(a, b Edge) int { return strings.Compare(key(a), key(b)) })
	g.Edges = slices.CompactFunc(g.Edges, func(a, b Edge) bool { return key(a) == key(b) })
}

// Format is an output format of a graph.
type Format string

// The formats `cairn graph -format` takes.
const (
	DOT     Format = "dot"
	Mermaid Format = "mermaid"
)

// Formats lists the formats, the default first.
func Formats() []Format { return []Format{DOT, Mermaid} }

// Write draws g in the format f.
func Write(w io.Writer, g *Graph, f Format) error {
	switch f {
	case DOT:
		return WriteDOT(w, g)
	case Mermaid:
		return WriteMermaid(w, g)
	}
	return fmt.Errorf("unknown graph format %q", f)
}
