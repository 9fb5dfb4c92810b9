package graphsvg

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/goccy/go-graphviz"
)

// Sizes in SVG user units, which are Graphviz points (1/72 inch).
const (
	fontSize   = 12
	charWidth  = 7.2 // a monospace character at fontSize
	padX       = 8   // text to box edge, each side
	nodeHeight = 24
	margin     = 8 // around the drawing
	maxLabel   = 48
	minChars   = 4 // a narrower box is hard to click
	perInch    = 72
)

// graphvizMu serialises layouts. go-graphviz runs one WebAssembly
// instance per process, created in its package initialisation, and its
// calls are not safe from several goroutines; this lock is the one piece
// of package state, mirroring that process-wide instance.
var graphvizMu sync.Mutex

type point struct{ x, y float64 }

// box is a node's place: its centre and size.
type box struct{ x, y, w, h float64 }

// placed is a laid-out drawing in SVG coordinates (y grows downwards,
// the margin included).
type placed struct {
	width, height float64
	nodes         []box // by index in drawnGraph.nodes
	// edges are by index in drawnGraph.edges: the cubic Bézier points of
	// the spline from To to From (1+3k points), then the arrow's tip.
	edges [][]point
}

// layout asks Graphviz's dot to place d and reads the answer back.
func layout(ctx context.Context, d *drawnGraph) (*placed, error) {
	src := dotSource(d)
	graphvizMu.Lock()
	out, err := runDot(ctx, src)
	graphvizMu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("graphsvg: laying out %d nodes with Graphviz: %w", len(d.nodes), err)
	}
	return readLayout(out, d)
}

// nodeWidth is the width of the box that holds text.
func nodeWidth(text string) float64 {
	return float64(max(utf8.RuneCountInString(text), minChars))*charWidth + 2*padX
}

// dotSource is the graph in the DOT language, nodes named n0, n1... by
// index so that no label needs quoting, each a fixed-size box, and each
// edge written To -> From so dot ranks what runs first to the left.
func dotSource(d *drawnGraph) []byte {
	var b bytes.Buffer
	b.WriteString("digraph g {\n")
	fmt.Fprintf(&b, "graph [rankdir=LR, nodesep=0.15, ranksep=0.6, margin=0, pad=0, mclimit=%s];\n", mclimit(d))
	fmt.Fprintf(&b, "node [shape=box, fixedsize=true, label=\"\", height=%s];\n", inches(nodeHeight))
	// Edges leave a box on its right and enter on its left, as a reader
	// follows them, not from anywhere on a wide box's border.
	b.WriteString("edge [tailport=e, headport=w];\n")
	index := d.index()
	for i, n := range d.nodes {
		fmt.Fprintf(&b, "%s [width=%s];\n", nodeName(i), inches(nodeWidth(n.text)))
	}
	for _, e := range d.edges {
		fmt.Fprintf(&b, "%s -> %s;\n", nodeName(index[e.To]), nodeName(index[e.From]))
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// fullEffort is the size (nodes plus edges) up to which dot minimises
// crossings with its default effort.
const fullEffort = 400

// mclimit scales dot's crossing minimisation iterations down as the
// graph grows past fullEffort: that phase is most of dot's time on large
// graphs (a random graph of 1,000 nodes and 2,800 edges: 8.3 s at 1,
// 3.3 s at 0.2), and a few more crossings cost less than the wait.
func mclimit(d *drawnGraph) string {
	work := len(d.nodes) + len(d.edges)
	return strconv.FormatFloat(max(0.1, min(1, float64(fullEffort)/float64(max(work, 1)))), 'f', 2, 64)
}

func inches(points float64) string {
	return strconv.FormatFloat(points/perInch, 'f', 4, 64)
}

// runDot lays src out with dot and returns Graphviz's "json0" output.
// Graphviz does not watch ctx while it runs; Draw checks it before and
// after.
func runDot(ctx context.Context, src []byte) ([]byte, error) {
	gv, err := graphviz.New(ctx)
	if err != nil {
		return nil, err
	}
	defer gv.Close()
	g, err := graphviz.ParseBytes(src)
	if err != nil {
		return nil, err
	}
	defer g.Close()
	var out bytes.Buffer
	if err := gv.Render(ctx, g, "json0", &out); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// dotJSON is the part of Graphviz's json0 output layout reads.
type dotJSON struct {
	BB      string `json:"bb"`
	Objects []struct {
		Name string `json:"name"`
		Pos  string `json:"pos"`
	} `json:"objects"`
	Edges []struct {
		Tail int    `json:"tail"`
		Head int    `json:"head"`
		Pos  string `json:"pos"`
	} `json:"edges"`
}

// readLayout turns Graphviz's answer into SVG coordinates: Graphviz's y
// grows upwards from the bottom of the bounding box.
func readLayout(out []byte, d *drawnGraph) (*placed, error) {
	var j dotJSON
	if err := json.Unmarshal(out, &j); err != nil {
		return nil, fmt.Errorf("graphsvg: reading Graphviz's layout: %w", err)
	}
	bb, err := parsePoints(strings.ReplaceAll(j.BB, ",", " "))
	if err != nil || len(bb) != 2 {
		return nil, fmt.Errorf("graphsvg: Graphviz's bounding box %q", j.BB)
	}
	// Whole units, so that Drawing's size is the one the SVG states.
	p := &placed{width: math.Ceil(bb[1].x + 2*margin), height: math.Ceil(bb[1].y + 2*margin)}
	flip := func(q point) point { return point{q.x + margin, bb[1].y - q.y + margin} }
	if err := placeNodes(p, &j, d, flip); err != nil {
		return nil, err
	}
	return p, placeEdges(p, &j, d, flip)
}

// placeNodes reads each node's centre; the size is the one dotSource
// fixed.
func placeNodes(p *placed, j *dotJSON, d *drawnGraph, flip func(point) point) error {
	if len(j.Objects) != len(d.nodes) {
		return fmt.Errorf("graphsvg: Graphviz placed %d nodes of %d", len(j.Objects), len(d.nodes))
	}
	p.nodes = make([]box, len(d.nodes))
	for _, o := range j.Objects {
		i, err := strconv.Atoi(strings.TrimPrefix(o.Name, "n"))
		if err != nil || i < 0 || i >= len(d.nodes) {
			return fmt.Errorf("graphsvg: Graphviz placed an unknown node %q", o.Name)
		}
		c, err := parsePoints(o.Pos)
		if err != nil || len(c) != 1 {
			return fmt.Errorf("graphsvg: node %q at %q", o.Name, o.Pos)
		}
		c[0] = flip(c[0])
		p.nodes[i] = box{x: c[0].x, y: c[0].y, w: nodeWidth(d.nodes[i].text), h: nodeHeight}
	}
	return nil
}

// placeEdges reads each edge's spline ("e,TIP P0 P1 ..." in Graphviz's
// pos attribute) and matches it to d's edge by its ends.
func placeEdges(p *placed, j *dotJSON, d *drawnGraph, flip func(point) point) error {
	name := func(gvid int) string {
		if gvid < 0 || gvid >= len(j.Objects) {
			return ""
		}
		return j.Objects[gvid].Name
	}
	nodes := d.index()
	index := make(map[[2]string]int, len(d.edges))
	for i, e := range d.edges {
		index[[2]string{nodeName(nodes[e.To]), nodeName(nodes[e.From])}] = i
	}
	p.edges = make([][]point, len(d.edges))
	for _, e := range j.Edges {
		i, ok := index[[2]string{name(e.Tail), name(e.Head)}]
		if !ok {
			return fmt.Errorf("graphsvg: Graphviz drew an unknown edge %s -> %s", name(e.Tail), name(e.Head))
		}
		pts, err := splinePoints(e.Pos)
		if err != nil {
			return err
		}
		for k := range pts {
			pts[k] = flip(pts[k])
		}
		p.edges[i] = pts
	}
	for i, pts := range p.edges {
		if pts == nil {
			return fmt.Errorf("graphsvg: Graphviz did not draw the edge %q → %q", d.edges[i].From, d.edges[i].To)
		}
	}
	return nil
}

// nodeName is the DOT name dotSource gives the drawn node at index i.
func nodeName(i int) string {
	return "n" + strconv.Itoa(i)
}

// splinePoints reads a pos attribute: the spline's points, then the tip
// of the arrowhead ("e,x,y") when there is one. A start arrow ("s,x,y")
// is not drawn.
func splinePoints(pos string) ([]point, error) {
	pos = strings.ReplaceAll(pos, "\\\n", "")
	var tip []point
	var body []string
	for _, f := range strings.Fields(pos) {
		switch {
		case strings.HasPrefix(f, "e,"):
			t, err := parsePoints(strings.ReplaceAll(f[2:], ",", " "))
			if err != nil || len(t) != 1 {
				return nil, fmt.Errorf("graphsvg: edge end %q", f)
			}
			tip = t
		case strings.HasPrefix(f, "s,"):
		default:
			body = append(body, f)
		}
	}
	pts, err := parsePoints(strings.Join(body, " "))
	if err != nil || len(pts) < 4 || (len(pts)-1)%3 != 0 {
		return nil, fmt.Errorf("graphsvg: edge spline %q", pos)
	}
	return append(pts, tip...), nil
}

// parsePoints reads "x,y x,y ..." (or "x y x y ...").
func parsePoints(s string) ([]point, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
	if len(fields)%2 != 0 {
		return nil, fmt.Errorf("odd number of coordinates in %q", s)
	}
	pts := make([]point, len(fields)/2)
	for i := range pts {
		x, err := strconv.ParseFloat(fields[2*i], 64)
		if err != nil {
			return nil, err
		}
		y, err := strconv.ParseFloat(fields[2*i+1], 64)
		if err != nil {
			return nil, err
		}
		pts[i] = point{x, y}
	}
	return pts, nil
}
