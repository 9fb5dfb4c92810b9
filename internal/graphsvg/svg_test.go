package graphsvg

import (
	"context"
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
)

// svgDoc is the SVG as the explorer's script sees it: the parts the
// package comment's contract names.
type svgDoc struct {
	XMLName xml.Name   `xml:"svg"`
	Class   string     `xml:"class,attr"`
	ViewBox string     `xml:"viewBox,attr"`
	Width   float64    `xml:"width,attr"`
	Height  float64    `xml:"height,attr"`
	Marker  svgMarker  `xml:"defs>marker"`
	Layers  []svgLayer `xml:"g"`
}

type svgMarker struct {
	ID string `xml:"id,attr"`
}

type svgLayer struct {
	Class string    `xml:"class,attr"`
	Items []svgItem `xml:"g"`
}

// svgItem is a node's or an edge's <g>.
type svgItem struct {
	Class    string   `xml:"class,attr"`
	ID       string   `xml:"id,attr"`
	DataNode string   `xml:"data-node,attr"`
	DataFrom string   `xml:"data-from,attr"`
	DataTo   string   `xml:"data-to,attr"`
	Title    string   `xml:"title"`
	Rect     *svgRect `xml:"rect"`
	Text     string   `xml:"text"`
	Path     *svgPath `xml:"path"`
}

type svgRect struct {
	X      float64 `xml:"x,attr"`
	Y      float64 `xml:"y,attr"`
	Width  float64 `xml:"width,attr"`
	Height float64 `xml:"height,attr"`
}

type svgPath struct {
	D         string `xml:"d,attr"`
	MarkerEnd string `xml:"marker-end,attr"`
}

// parsed is a drawing read back from its SVG.
type parsed struct {
	doc   svgDoc
	nodes map[string]svgItem // by data-node
	edges []svgItem
}

// draw draws g and checks what every drawing must be: well-formed XML
// with one <svg> root, no script and no external reference, and the
// structure of the contract. It returns the drawing read back.
func draw(t *testing.T, g Graph, opts Options) (*Drawing, *parsed) {
	t.Helper()
	d, err := Draw(context.Background(), g, opts)
	if err != nil {
		t.Fatal(err)
	}
	return d, check(t, d)
}

func check(t *testing.T, d *Drawing) *parsed {
	t.Helper()
	wellFormed(t, d.SVG)
	for _, bad := range []string{"<script", "href", "url(http", "<image", "@import", "style=\"", "fill=\""} {
		if strings.Contains(d.SVG, bad) {
			t.Errorf("the SVG contains %q", bad)
		}
	}
	var p parsed
	if err := xml.Unmarshal([]byte(d.SVG), &p.doc); err != nil {
		t.Fatal(err)
	}
	if p.doc.Class != "graphsvg" || p.doc.Width != d.Width || p.doc.Height != d.Height ||
		p.doc.ViewBox != "0 0 "+num(d.Width)+" "+num(d.Height) {
		t.Errorf("root: class %q viewBox %q width %v height %v; the drawing says %v × %v",
			p.doc.Class, p.doc.ViewBox, p.doc.Width, p.doc.Height, d.Width, d.Height)
	}
	if len(p.doc.Layers) != 2 || p.doc.Layers[0].Class != "edges" || p.doc.Layers[1].Class != "nodes" {
		t.Fatalf("want a <g class=edges> then a <g class=nodes>, got %+v", p.doc.Layers)
	}
	p.nodes = map[string]svgItem{}
	for _, n := range p.doc.Layers[1].Items {
		checkNode(t, n)
		p.nodes[n.DataNode] = n
	}
	if len(p.nodes) != len(d.Members) {
		t.Errorf("%d nodes drawn, Members has %d", len(p.nodes), len(d.Members))
	}
	for _, e := range p.doc.Layers[0].Items {
		checkEdge(t, e, p.nodes, p.doc.Marker.ID)
	}
	p.edges = p.doc.Layers[0].Items
	return &p
}

// wellFormed decodes the whole of s as XML and requires one root element.
func wellFormed(t *testing.T, s string) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(s))
	depth, roots := 0, 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v", err)
		}
		switch tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
			}
			depth++
		case xml.EndElement:
			depth--
		}
	}
	if roots != 1 {
		t.Fatalf("the SVG has %d root elements", roots)
	}
}

func checkNode(t *testing.T, n svgItem) {
	t.Helper()
	kind, ok := strings.CutPrefix(n.Class, "node k-")
	if !ok || kindClass(kind) != kind || n.ID != "node-"+n.DataNode {
		t.Errorf("node %q: class %q id %q", n.DataNode, n.Class, n.ID)
	}
	if n.Rect == nil || n.Rect.Width <= 0 || n.Rect.Height <= 0 || n.Text == "" || n.Title == "" {
		t.Errorf("node %q: want a <title>, a <rect> and a <text>, got %+v", n.DataNode, n)
	}
}

func checkEdge(t *testing.T, e svgItem, nodes map[string]svgItem, marker string) {
	t.Helper()
	_, from := nodes[e.DataFrom]
	_, to := nodes[e.DataTo]
	if e.Class != "edge" || !from || !to || e.DataFrom == e.DataTo {
		t.Errorf("edge %q → %q: class %q, not between two drawn nodes", e.DataFrom, e.DataTo, e.Class)
	}
	if e.Path == nil || !strings.HasPrefix(e.Path.D, "M") || e.Path.MarkerEnd != "url(#"+marker+")" || marker == "" {
		t.Errorf("edge %q → %q: path %+v, marker %q", e.DataFrom, e.DataTo, e.Path, marker)
	}
}

// pathEnds are the first and last points of an edge's path.
func pathEnds(t *testing.T, d string) (start, end point) {
	t.Helper()
	pts := pathPoints(t, d)
	return pts[0], pts[len(pts)-1]
}

// pathPoints are the points of an edge's path, control points included.
func pathPoints(t *testing.T, d string) []point {
	t.Helper()
	f := strings.FieldsFunc(d, func(r rune) bool { return strings.ContainsRune("MCL ,", r) })
	if len(f) < 4 || len(f)%2 != 0 {
		t.Fatalf("path %q", d)
	}
	pts := make([]point, len(f)/2)
	for i := range pts {
		x, errX := strconv.ParseFloat(f[2*i], 64)
		y, errY := strconv.ParseFloat(f[2*i+1], 64)
		if err := errors.Join(errX, errY); err != nil {
			t.Fatalf("path %q: %v", d, err)
		}
		pts[i] = point{x, y}
	}
	return pts
}
