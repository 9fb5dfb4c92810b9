package graphsvg

import (
	"encoding/xml"
	"strconv"
	"strings"
	"unicode/utf8"
)

// defaultStyle makes the SVG readable on its own. Every rule sits inside
// :where(), whose specificity is zero, so the page's style sheet wins
// over it wherever the two disagree. Box widths assume the 12px
// monospace font set here (charWidth).
const defaultStyle = `:where(.graphsvg .node rect){fill:#f5f5f5;stroke:#777;stroke-width:1}` +
	`:where(.graphsvg .node text){font:12px monospace;fill:#222;text-anchor:middle;dominant-baseline:central}` +
	`:where(.graphsvg .edge path){fill:none;stroke:#999;stroke-width:1}` +
	`:where(.graphsvg .arrowhead){fill:#999}` +
	`:where(.graphsvg .k-create rect){fill:#e3f4e1;stroke:#2e7d32}` +
	`:where(.graphsvg .k-update rect){fill:#fff4d6;stroke:#b58900}` +
	`:where(.graphsvg .k-replace rect){fill:#fde7d9;stroke:#c75b12}` +
	`:where(.graphsvg .k-delete rect){fill:#fbe0e0;stroke:#c62828}` +
	`:where(.graphsvg .k-read rect){fill:#e1ecfb;stroke:#1565c0}` +
	`:where(.graphsvg .k-provider rect){fill:#ede3f6;stroke:#6a1b9a}` +
	`:where(.graphsvg .k-output rect){fill:#e0f2f1;stroke:#00796b}`

// arrowID is the id of the arrowhead marker; the prefix keeps it apart
// from the ids of the page the SVG is inlined in.
const arrowID = "graphsvg-arrow"

// writeSVG writes the drawing of d placed at p (the contract is in the
// package comment).
func writeSVG(d *drawnGraph, p *placed) string {
	var b strings.Builder
	b.Grow(256 + 300*len(d.nodes) + 200*len(d.edges))
	w, h := num(p.width), num(p.height)
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" class="graphsvg" viewBox="0 0 ` + w + " " + h +
		`" width="` + w + `" height="` + h + `">`)
	b.WriteString("\n<style>" + defaultStyle + "</style>\n")
	b.WriteString(`<defs><marker id="` + arrowID + `" viewBox="0 0 10 10" refX="10" refY="5"` +
		` markerWidth="10" markerHeight="10" markerUnits="userSpaceOnUse" orient="auto">` +
		`<path class="arrowhead" d="M0,0L10,5L0,10z"/></marker></defs>` + "\n")
	b.WriteString(`<g class="edges">` + "\n")
	for i, e := range d.edges {
		writeEdge(&b, e, p.edges[i])
	}
	b.WriteString("</g>\n" + `<g class="nodes">` + "\n")
	for i, n := range d.nodes {
		writeNode(&b, n, p.nodes[i])
	}
	b.WriteString("</g>\n</svg>\n")
	return b.String()
}

// writeEdge writes one edge: a path along its spline, ending in a line
// to the arrow's tip, where the marker sits.
func writeEdge(b *strings.Builder, e Edge, pts []point) {
	b.WriteString(`<g class="edge" data-from="`)
	escape(b, e.From)
	b.WriteString(`" data-to="`)
	escape(b, e.To)
	b.WriteString(`"><path d="M`)
	writePoint(b, pts[0])
	n := len(pts) - 1 // the last point is the tip
	if (n-1)%3 != 0 {
		n = len(pts) // no tip: the spline ends at the node
	}
	for i := 1; i < n; i++ {
		if (i-1)%3 == 0 {
			b.WriteByte('C')
		} else {
			b.WriteByte(' ')
		}
		writePoint(b, pts[i])
	}
	if n < len(pts) {
		b.WriteByte('L')
		writePoint(b, pts[n])
	}
	b.WriteString(`" marker-end="url(#` + arrowID + `)"/></g>` + "\n")
}

func writeNode(b *strings.Builder, n drawnNode, at box) {
	b.WriteString(`<g class="node k-` + n.kind + `" id="node-`)
	escape(b, n.id)
	b.WriteString(`" data-node="`)
	escape(b, n.id)
	b.WriteString(`"><title>`)
	escape(b, n.label)
	b.WriteString(`</title><rect x="` + num(at.x-at.w/2) + `" y="` + num(at.y-at.h/2) +
		`" width="` + num(at.w) + `" height="` + num(at.h) + `" rx="3"/>`)
	b.WriteString(`<text x="` + num(at.x) + `" y="` + num(at.y) + `">`)
	escape(b, n.text)
	b.WriteString("</text></g>\n")
}

func writePoint(b *strings.Builder, q point) {
	b.WriteString(num(q.x))
	b.WriteByte(',')
	b.WriteString(num(q.y))
}

// escape writes s as XML text or attribute value.
func escape(b *strings.Builder, s string) {
	xml.EscapeText(b, []byte(s)) // a strings.Builder never fails a write
}

// num formats a coordinate to a tenth of a unit, which is finer than a
// screen shows, and keeps the SVG small.
func num(v float64) string {
	s := strconv.FormatFloat(v, 'f', 1, 64)
	s = strings.TrimSuffix(s, ".0")
	if s == "-0" {
		return "0"
	}
	return s
}

// shorten cuts s to n characters, keeping its start and its end (an
// address's module path and its resource name and key) around "…".
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	head := (n - 1) * 2 / 5
	tail := n - 1 - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}
