package graphfmt

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteMermaid draws g as a Mermaid flowchart, left to right, in the
// order of g: one line per node (id n<index>, quoted label, shape), then
// one line per edge, an arrow from the dependent to its dependency as in
// DOT. The short ids keep the text valid whatever the labels hold, and
// make a node's line easy to find from an edge's.
func WriteMermaid(w io.Writer, g *Graph) error {
	b := bufio.NewWriter(w)
	b.WriteString("flowchart LR\n")
	for i, n := range g.Nodes {
		open, shut := mermaidShape(n.Shape)
		fmt.Fprintf(b, "  n%d%s\"%s\"%s\n", i, open, mermaidLabel(n.Label), shut)
	}
	for _, e := range g.Edges {
		fmt.Fprintf(b, "  n%d --> n%d\n", e.From, e.To)
	}
	return b.Flush()
}

// mermaidShape returns the brackets that give a Mermaid node the shape
// closest to DOT's.
func mermaidShape(s Shape) (open, shut string) {
	switch s {
	case Diamond:
		return "{", "}"
	case Note:
		return ">", "]"
	case Ellipse:
		return "([", "])"
	}
	return "[", "]"
}

// mermaidLabel escapes a label for a quoted Mermaid string. Mermaid ends
// the string at a double quote, reads "#name;" as a character entity, and
// shows labels as HTML, so those characters are written as entities
// (Mermaid's own "#code;" form) and every other character stays as it is.
// A line break in a label becomes a space: a node's label is one line.
func mermaidLabel(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '#':
			b.WriteString("#35;")
		case '"':
			b.WriteString("#quot;")
		case '&':
			b.WriteString("#amp;")
		case '<':
			b.WriteString("#lt;")
		case '>':
			b.WriteString("#gt;")
		case '\n', '\r':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
