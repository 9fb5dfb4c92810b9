package graphsvg

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// randomGraph has n nodes and about m edges in any direction, so
// cycles, but no self-loops.
func randomGraph(n, m int, seed int64) Graph {
	r := rand.New(rand.NewSource(seed))
	var g Graph
	for i := range n {
		g.Nodes = append(g.Nodes, Node{ID: fmt.Sprintf("c%03d", i), Kind: "update"})
	}
	for range m {
		if a, b := r.Intn(n), r.Intn(n); a != b { // a self-loop is not drawn
			g.Edges = append(g.Edges, Edge{From: g.Nodes[a].ID, To: g.Nodes[b].ID})
		}
	}
	return g
}

// cycle is a waiting for c waiting for b waiting for a, and d for c.
func cycle() Graph {
	return Graph{
		Nodes: []Node{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}},
		Edges: []Edge{{From: "b", To: "a"}, {From: "c", To: "b"}, {From: "a", To: "c"}, {From: "d", To: "c"}},
	}
}

// layoutCases are drawn unfolded (MaxNodes 1,000) by the layout tests.
func layoutCases() map[string]Graph {
	return map[string]Graph{
		"chain":      chain("a", "b", "c"),
		"diamond":    diamond(),
		"fan":        fanGraph(6, 8),
		"plan":       planGraph(20, 10, 4),
		"random500":  randomDAG(500, 1500, 7),
		"cycle":      cycle(),
		"cyclic200":  randomGraph(200, 400, 8),
		"long-label": {Nodes: []Node{{ID: strings.Repeat("x", 60)}, {ID: "y"}, {ID: "z"}}, Edges: []Edge{{From: "y", To: strings.Repeat("x", 60)}, {From: "z", To: strings.Repeat("x", 60)}}},
	}
}

// TestNoOverlap requires, read back from the SVG, no two boxes to
// overlap (not even touch) and every box to lie within the drawing.
func TestNoOverlap(t *testing.T) {
	for name, g := range layoutCases() {
		t.Run(name, func(t *testing.T) {
			d, p := draw(t, g, Options{MaxNodes: 1000})
			var rects []*svgRect
			var ids []string
			for id, n := range p.nodes {
				r := n.Rect
				if r.X < 0 || r.Y < 0 || r.X+r.Width > d.Width || r.Y+r.Height > d.Height {
					t.Errorf("%q at %+v is outside the %v × %v drawing", id, *r, d.Width, d.Height)
				}
				for i, o := range rects {
					if r.X < o.X+o.Width && o.X < r.X+r.Width && r.Y < o.Y+o.Height && o.Y < r.Y+r.Height {
						t.Errorf("%q at %+v overlaps %q at %+v", id, *r, ids[i], *o)
					}
				}
				rects, ids = append(rects, r), append(ids, id)
			}
		})
	}
}

// TestEdgesRunRight requires every drawn edge of a graph without cycles
// to run left to right all along (its points' x never decrease) from its
// To's right side to its From's left side, and every edge of a cyclic
// graph to be drawn and end at its From: at the left side when it runs
// right, at the right side when it had to be reversed.
func TestEdgesRunRight(t *testing.T) {
	for name, g := range layoutCases() {
		t.Run(name, func(t *testing.T) {
			_, p := draw(t, g, Options{MaxNodes: 1000})
			acyclic := !strings.HasPrefix(name, "cycl")
			for _, e := range p.edges {
				from, to := p.nodes[e.DataFrom].Rect, p.nodes[e.DataTo].Rect
				pts := pathPoints(t, e.Path.D)
				start, end := pts[0], pts[len(pts)-1]
				right := near(start.x, to.X+to.Width) && near(end.x, from.X)
				back := near(start.x, to.X) && near(end.x, from.X+from.Width)
				if !right && (acyclic || !back) {
					t.Errorf("edge %q → %q runs from x=%v to x=%v, boxes at %+v and %+v", e.DataFrom, e.DataTo, start.x, end.x, *to, *from)
				}
				for i := 1; acyclic && i < len(pts); i++ {
					if pts[i].x < pts[i-1].x-0.1 {
						t.Errorf("edge %q → %q turns back left: %q", e.DataFrom, e.DataTo, e.Path.D)
						break
					}
				}
			}
			if !acyclic {
				checkReduced(t, edgeSet(g.Edges), p)
			}
		})
	}
}

// layeredOf lays g out unreduced and unfolded up to the ordering.
func layeredOf(t *testing.T, g Graph) *layered {
	t.Helper()
	nodes, edges, err := normalize(g)
	if err != nil {
		t.Fatal(err)
	}
	return newLayered(identity(nodes, edges))
}

// TestRanks requires, for graphs without cycles, no edge to be reversed
// and each edge's From to be in a later column than its To; for cyclic
// ones, every edge to run from an earlier column to a later one once
// the reversed are turned round.
func TestRanks(t *testing.T) {
	for name, g := range layoutCases() {
		t.Run(name, func(t *testing.T) {
			l := layeredOf(t, g)
			index := l.d.index()
			reversed := 0
			for i, e := range l.d.edges {
				from, to := l.rank[index[e.From]], l.rank[index[e.To]]
				if l.reversed[i] {
					from, to = to, from
					reversed++
				}
				if from <= to {
					t.Errorf("edge %q → %q (reversed %v): column %d, not after %d", e.From, e.To, l.reversed[i], from, to)
				}
			}
			if cyclic := strings.HasPrefix(name, "cycl"); cyclic != (reversed > 0) {
				t.Errorf("%d edges reversed", reversed)
			}
		})
	}
}

// TestCrossings requires the ordering to cross no more than the nodes
// in index order do, and none at all where that is possible: in
// "crossed", index order crosses every pair of edges and sorting right
// crosses none.
func TestCrossings(t *testing.T) {
	crossed := Graph{Nodes: []Node{{ID: "a0"}, {ID: "a1"}, {ID: "a2"}, {ID: "b0"}, {ID: "b1"}, {ID: "b2"}},
		Edges: []Edge{{From: "b0", To: "a2"}, {From: "b1", To: "a1"}, {From: "b2", To: "a0"}}}
	for name, tc := range map[string]struct {
		g    Graph
		zero bool
	}{
		"crossed":   {g: crossed, zero: true},
		"diamond":   {g: diamond(), zero: true},
		"fan":       {g: fanGraph(6, 8)},
		"random100": {g: randomDAG(100, 250, 9)},
		"random500": {g: randomDAG(500, 1500, 7)},
		"cyclic200": {g: randomGraph(200, 400, 8)},
	} {
		t.Run(name, func(t *testing.T) {
			l := layeredOf(t, tc.g)
			byIndex := make([][]int, len(l.layers))
			for v, r := range l.rank {
				byIndex[r] = append(byIndex[r], v)
			}
			l.setOrder(byIndex)
			trivial := l.crossings()
			l.initialOrder()
			if err := l.order(context.Background()); err != nil {
				t.Fatal(err)
			}
			got := l.crossings()
			t.Logf("%d crossings, %d in index order", got, trivial)
			if got > trivial || (tc.zero && got != 0) {
				t.Errorf("%d crossings, %d in index order", got, trivial)
			}
		})
	}
}

// TestCrossingsCounted checks the count itself on columns set by hand:
// a0 a1 a2 | b0 b1 b2 with a0-b2, a1-b1, a2-b0 cross in 3 pairs, a
// repeated segment crosses what its twin crosses.
func TestCrossingsCounted(t *testing.T) {
	for _, tc := range []struct {
		segs [][2]int // a index, b index
		want int
	}{
		{[][2]int{{0, 2}, {1, 1}, {2, 0}}, 3},
		{[][2]int{{0, 0}, {1, 1}, {2, 2}}, 0},
		{[][2]int{{0, 1}, {0, 0}, {1, 0}}, 1},
		{[][2]int{{0, 2}, {0, 2}, {1, 0}}, 2},
	} {
		l := &layered{rank: []int{0, 0, 0, 1, 1, 1}, succ: make([][]int, 6)}
		for _, s := range tc.segs {
			l.succ[s[0]] = append(l.succ[s[0]], 3+s[1])
		}
		l.setOrder([][]int{{0, 1, 2}, {3, 4, 5}})
		if got := l.crossings(); got != tc.want {
			t.Errorf("segments %v: %d crossings, want %d", tc.segs, got, tc.want)
		}
	}
}

// TestOrderStopsWithContext wants the ordering to end when ctx does.
func TestOrderStopsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	l := layeredOf(t, randomDAG(100, 250, 9))
	if err := l.order(ctx); err != context.Canceled {
		t.Errorf("order with a cancelled context: %v", err)
	}
}
