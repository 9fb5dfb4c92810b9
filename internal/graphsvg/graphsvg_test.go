package graphsvg

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// chain is a → b → c ... : each node waits for the one before.
func chain(ids ...string) Graph {
	var g Graph
	for i, id := range ids {
		g.Nodes = append(g.Nodes, Node{ID: id, Kind: "create"})
		if i > 0 {
			g.Edges = append(g.Edges, Edge{From: id, To: ids[i-1]})
		}
	}
	return g
}

// diamond is top waiting for left and right, which wait for bottom.
func diamond() Graph {
	return Graph{
		Nodes: []Node{{ID: "top", Kind: "update"}, {ID: "left", Kind: "create"}, {ID: "right", Kind: "create"}, {ID: "bottom", Kind: "read"}},
		Edges: []Edge{{From: "top", To: "left"}, {From: "top", To: "right"}, {From: "left", To: "bottom"}, {From: "right", To: "bottom"}},
	}
}

// fanGraph is groups resources of count instances each in module.m, every
// instance waiting for the same instance of the resource before, and all
// of them for one provider.
func fanGraph(groups, count int) Graph {
	prov := `provider["registry.terraform.io/hashicorp/aws"]`
	g := Graph{Nodes: []Node{{ID: prov, Kind: "provider"}}}
	for r := range groups {
		for i := range count {
			id := fmt.Sprintf("module.m.aws_thing.r%d[%d]", r, i)
			g.Nodes = append(g.Nodes, Node{ID: id, Kind: []string{"create", "update"}[r%2], Group: fmt.Sprintf("module.m.aws_thing.r%d", r)})
			g.Edges = append(g.Edges, Edge{From: id, To: prov})
			if r > 0 {
				g.Edges = append(g.Edges, Edge{From: id, To: fmt.Sprintf("module.m.aws_thing.r%d[%d]", r-1, i)})
			}
		}
	}
	return g
}

type goldenCase struct {
	graph Graph
	opts  Options
}

// goldenCases are small graphs: every kind, labels that need escaping or
// shortening, a chain, a diamond, a fold and nothing at all.
func goldenCases() map[string]goldenCase {
	return map[string]goldenCase{
		"kinds": {graph: Graph{
			Nodes: []Node{
				{ID: `provider["registry.terraform.io/hashicorp/aws"]`, Kind: "provider"},
				{ID: "aws_vpc.main", Kind: "create"},
				{ID: "aws_subnet.a", Kind: "update"},
				{ID: "aws_instance.web", Kind: "replace"},
				{ID: "aws_eip.old", Kind: "delete"},
				{ID: "data.aws_ami.ubuntu", Kind: "read"},
				{ID: "aws_iam_role.r", Kind: "noop"},
				{ID: "output.ip", Kind: "output"},
				{ID: "terraform_data.x", Kind: "other"},
				{ID: "local_file.f", Kind: "frobnicate"},
			},
			Edges: []Edge{
				{From: "aws_vpc.main", To: `provider["registry.terraform.io/hashicorp/aws"]`},
				{From: "aws_subnet.a", To: "aws_vpc.main"},
				{From: "aws_instance.web", To: "aws_subnet.a"},
				{From: "aws_instance.web", To: "data.aws_ami.ubuntu"},
				{From: "aws_instance.web", To: "aws_iam_role.r"},
				{From: "aws_eip.old", To: "aws_instance.web"},
				{From: "output.ip", To: "aws_instance.web"},
				{From: "local_file.f", To: "terraform_data.x"},
			},
		}},
		"escaping": {graph: Graph{
			Nodes: []Node{
				{ID: `aws_x.y["a&b"]`, Kind: "create"},
				{ID: `aws_x.y["<script>"]`, Label: `aws_x.y["<script>alert('x')</script>"]`, Kind: "update"},
				{ID: `it's "quoted"`, Label: "tab\tand\nnewline & \x01control", Kind: "delete"},
			},
			Edges: []Edge{{From: `aws_x.y["<script>"]`, To: `aws_x.y["a&b"]`}, {From: `it's "quoted"`, To: `aws_x.y["a&b"]`}},
		}},
		"long-labels": {graph: Graph{
			Nodes: []Node{
				{ID: "short", Kind: "noop"},
				{ID: "long", Label: `module.networking["eu-west-1"].module.subnets.aws_subnet.private["eu-west-1a-private-workloads"]`, Kind: "create"},
				{ID: "unicode", Label: strings.Repeat("ü€", 40), Kind: "read"},
			},
			Edges: []Edge{{From: "long", To: "short"}, {From: "unicode", To: "long"}},
		}},
		"chain":   {graph: chain("a", "b", "c", "d")},
		"diamond": {graph: diamond()},
		"folded":  {graph: fanGraph(3, 4), opts: Options{MaxNodes: 10}},
		"empty":   {},
	}
}

// TestDrawGolden holds the SVG of goldenCases to testdata/NAME.svg
// (rewritten by -update), after checking what every drawing must be.
func TestDrawGolden(t *testing.T) {
	for name, tc := range goldenCases() {
		t.Run(name, func(t *testing.T) {
			d, p := draw(t, tc.graph, tc.opts)
			checkLabels(t, tc.graph, d, p)
			golden(t, filepath.Join("testdata", name+".svg"), d.SVG)
		})
	}
}

// checkLabels requires every node of an unfolded drawing to show its
// label (shortened past maxLabel) with the whole of it in its <title>.
func checkLabels(t *testing.T, g Graph, d *Drawing, p *parsed) {
	t.Helper()
	if d.Folded {
		return
	}
	for _, n := range g.Nodes {
		want := n.Label
		if want == "" {
			want = n.ID
		}
		got := p.nodes[n.ID]
		if !strings.Contains(want, "\x01") && got.Title != want {
			t.Errorf("node %q: title %q, want %q", n.ID, got.Title, want)
		}
		if got.Class != "node k-"+kindClass(n.Kind) {
			t.Errorf("node %q: class %q, want kind %q", n.ID, got.Class, kindClass(n.Kind))
		}
		short := []rune(got.Text)
		if len(short) > maxLabel || (len([]rune(want)) > maxLabel) != strings.Contains(got.Text, "…") {
			t.Errorf("node %q: text %q for label %q", n.ID, got.Text, want)
		}
	}
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (go test -update rewrites it); got:\n%s", path, got)
	}
}

// TestRanksFollowEdges requires, read back from the SVG's coordinates,
// every edge's To to be drawn wholly left of its From (the edges the
// reduction left out included), each drawn path to run from To's right
// side to From's left side, and the drawn edges to be edges of the graph
// that keep what each node waits for, directly or not.
func TestRanksFollowEdges(t *testing.T) {
	for name, g := range map[string]Graph{
		"chain":   chain("a", "b", "c", "d", "e"),
		"diamond": diamond(),
		"fan":     fanGraph(4, 5),
		"random":  randomDAG(60, 150, 1),
	} {
		t.Run(name, func(t *testing.T) {
			_, p := draw(t, g, Options{})
			for _, e := range g.Edges {
				from, to := p.nodes[e.From].Rect, p.nodes[e.To].Rect
				if to.X+to.Width >= from.X {
					t.Errorf("%q (x %v..%v) waits for %q (x %v..%v) but is not right of it",
						e.From, from.X, from.X+from.Width, e.To, to.X, to.X+to.Width)
				}
			}
			for _, e := range p.edges {
				from, to := p.nodes[e.DataFrom].Rect, p.nodes[e.DataTo].Rect
				start, end := pathEnds(t, e.Path.D)
				if !near(start.x, to.X+to.Width) || !near(end.x, from.X) {
					t.Errorf("edge %q → %q runs from x=%v to x=%v; the boxes end at %v and start at %v",
						e.DataFrom, e.DataTo, start.x, end.x, to.X+to.Width, from.X)
				}
			}
			checkReduced(t, edgeSet(g.Edges), p)
		})
	}
}

func edgeSet(edges []Edge) map[Edge]bool {
	set := map[Edge]bool{}
	for _, e := range edges {
		set[e] = true
	}
	return set
}

// checkReduced requires the drawn edges to be edges of want, each drawn
// once, through which every node reaches what it reaches in want.
func checkReduced(t *testing.T, want map[Edge]bool, p *parsed) {
	t.Helper()
	drawn := map[Edge]bool{}
	for _, e := range p.edges {
		k := Edge{e.DataFrom, e.DataTo}
		if drawn[k] || !want[k] {
			t.Errorf("edge %q → %q drawn twice, or not an edge of the graph", k.From, k.To)
		}
		drawn[k] = true
	}
	full, reduced := closure(want), closure(drawn)
	for e := range full {
		if !reduced[e] {
			t.Errorf("%q waits for %q, but no drawn path says so", e.From, e.To)
		}
	}
}

// closure is every pair (a, b) such that a reaches b along edges.
func closure(edges map[Edge]bool) map[Edge]bool {
	succ := map[string][]string{}
	for e := range edges {
		succ[e.From] = append(succ[e.From], e.To)
	}
	out := map[Edge]bool{}
	for from := range succ {
		stack := slices.Clone(succ[from])
		for len(stack) > 0 {
			to := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if !out[Edge{from, to}] {
				out[Edge{from, to}] = true
				stack = append(stack, succ[to]...)
			}
		}
	}
	return out
}

func near(a, b float64) bool { return a-b < 2 && b-a < 2 }

// randomDAG has n nodes and about m edges, each from a later node to an
// earlier one, so it has no cycle.
func randomDAG(n, m int, seed int64) Graph {
	r := rand.New(rand.NewSource(seed))
	var g Graph
	for i := range n {
		g.Nodes = append(g.Nodes, Node{ID: fmt.Sprintf("n%03d", i), Kind: "create"})
	}
	for range m {
		a, b := r.Intn(n), r.Intn(n)
		if a != b {
			g.Edges = append(g.Edges, Edge{From: g.Nodes[max(a, b)].ID, To: g.Nodes[min(a, b)].ID})
		}
	}
	return g
}

// TestDeterministic draws graphs twice, the second time with nodes and
// edges shuffled (and repeated edges), and wants the same bytes.
func TestDeterministic(t *testing.T) {
	for name, g := range map[string]Graph{
		"random": randomDAG(80, 200, 2),
		"cyclic": randomGraph(80, 200, 5),
		"folded": fanGraph(30, 20),
	} {
		t.Run(name, func(t *testing.T) {
			first, _ := draw(t, g, Options{})
			r := rand.New(rand.NewSource(3))
			shuffled := Graph{Nodes: append([]Node(nil), g.Nodes...), Edges: append(append([]Edge(nil), g.Edges...), g.Edges...)}
			r.Shuffle(len(shuffled.Nodes), func(i, j int) { shuffled.Nodes[i], shuffled.Nodes[j] = shuffled.Nodes[j], shuffled.Nodes[i] })
			r.Shuffle(len(shuffled.Edges), func(i, j int) { shuffled.Edges[i], shuffled.Edges[j] = shuffled.Edges[j], shuffled.Edges[i] })
			second, _ := draw(t, shuffled, Options{})
			if first.SVG != second.SVG {
				t.Error("the same graph drew different SVG")
			}
		})
	}
}

// TestConcurrentDraws draws from several goroutines at once: the package
// has no state to share, and -race holds it to that.
func TestConcurrentDraws(t *testing.T) {
	g := randomDAG(40, 80, 4)
	want, _ := draw(t, g, Options{})
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			d, err := Draw(context.Background(), g, Options{})
			if err == nil && d.SVG != want.SVG {
				err = errors.New("a concurrent draw differs")
			}
			errs[i] = err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
}

func TestDrawFails(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for name, tc := range map[string]struct {
		ctx   context.Context
		graph Graph
		want  string
	}{
		"cancelled":       {ctx: cancelled, graph: chain("a", "b"), want: context.Canceled.Error()},
		"node twice":      {graph: Graph{Nodes: []Node{{ID: "a"}, {ID: "a"}}}, want: `node "a" appears twice`},
		"edge to nowhere": {graph: Graph{Nodes: []Node{{ID: "a"}}, Edges: []Edge{{From: "a", To: "b"}}}, want: `names "b", which is not a node`},
	} {
		t.Run(name, func(t *testing.T) {
			ctx := tc.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			d, err := Draw(ctx, tc.graph, Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) || d != nil {
				t.Fatalf("got %v, %v; want an error saying %q", d, err, tc.want)
			}
		})
	}
}

func TestShorten(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"aws_x.y", 48, "aws_x.y"},
		{"abcdefghij", 10, "abcdefghij"},
		{"abcdefghijk", 10, "abc…fghijk"},
		{"üüüüüüüüüüüü", 6, "üü…üüü"},
	} {
		got := shorten(tc.in, tc.n)
		if got != tc.want || len([]rune(got)) > tc.n {
			t.Errorf("shorten(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
