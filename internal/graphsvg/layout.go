package graphsvg

import (
	"context"
	"unicode/utf8"
)

// Sizes in SVG user units.
const (
	fontSize   = 12
	charWidth  = 7.2 // a monospace character at fontSize
	padX       = 8   // text to box edge, each side
	nodeHeight = 24
	margin     = 8 // around the drawing
	maxLabel   = 48
	minChars   = 4 // a narrower box is hard to click

	rankGap  = 56 // between columns: room for the edges' curves and arrows
	nodeGap  = 12 // between two boxes of one column
	laneGap  = 6  // between an edge passing through a column and its neighbours
	arrowLen = 10 // the arrowhead marker's length
)

type point struct{ x, y float64 }

// box is a node's place: its centre and size.
type box struct{ x, y, w, h float64 }

// placed is a laid-out drawing in SVG coordinates (y grows downwards,
// the margin included).
type placed struct {
	width, height float64
	nodes         []box // by index in drawnGraph.nodes
	// edges are by index in drawnGraph.edges: the cubic Bézier points of
	// the curve from To to From (1+3k points), then the arrow's tip.
	edges [][]point
}

// layout places d in columns, left to right, in the phases of a layered
// (Sugiyama) drawing: break cycles, give each node its column (rank),
// route long edges through one virtual node per column they cross, order
// each column to reduce crossings, then set coordinates and curves. It
// checks ctx between phases and during the ordering, the longest one.
func layout(ctx context.Context, d *drawnGraph) (*placed, error) {
	l := newLayered(d)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := l.order(ctx); err != nil {
		return nil, err
	}
	return l.place(), nil
}

// nodeWidth is the width of the box that holds text.
func nodeWidth(text string) float64 {
	return float64(max(utf8.RuneCountInString(text), minChars))*charWidth + 2*padX
}
