package graphsvg

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// planGraph is a plan-like graph of groups resources, count instances
// each, spread over modules module calls (none: all in the root): every
// instance waits for the same instance of the resource before it and for
// instance 0 of the first resource, which repeats edges between groups.
func planGraph(groups, count, modules int) Graph {
	addr := func(r int) string {
		if modules > 0 {
			return fmt.Sprintf("module.m%d.aws_thing.r%d", r%modules, r)
		}
		return fmt.Sprintf("aws_thing.r%d", r)
	}
	var g Graph
	for r := range groups {
		for i := range count {
			id := fmt.Sprintf("%s[%d]", addr(r), i)
			g.Nodes = append(g.Nodes, Node{ID: id, Kind: []string{"create", "update", "delete"}[r%3], Group: addr(r)})
			if r > 0 {
				g.Edges = append(g.Edges,
					Edge{From: id, To: fmt.Sprintf("%s[%d]", addr(r-1), i)},
					Edge{From: id, To: addr(0) + "[0]"})
			}
		}
	}
	return g
}

// foldedEdges are g's edges between the drawn nodes that member says
// each node is in, once each, computed without the package's folding.
func foldedEdges(g Graph, member map[string]string) map[Edge]bool {
	want := map[Edge]bool{}
	for _, e := range g.Edges {
		if f, t := member[e.From], member[e.To]; f != t {
			want[Edge{f, t}] = true
		}
	}
	return want
}

// TestFold draws graphs past MaxNodes and checks the drawn nodes, that
// Members covers every node exactly once, each fold's label, kind and
// count, and that the edges between folds are drawn once each, reduced
// (see checkReduced).
func TestFold(t *testing.T) {
	for name, tc := range map[string]struct {
		graph Graph
		max   int
		want  []string // drawn node ids
	}{
		"10,000 nodes in 50 groups": {graph: planGraph(50, 200, 0), want: groupIDs("g:aws_thing.r%d", 50)},
		"groups, then modules":      {graph: planGraph(40, 3, 4), max: 30, want: refined()},
		"under the limit":           {graph: planGraph(3, 3, 0), max: 9, want: nil},
		"edges past the budget":     {graph: bipartite(20), max: 40, want: []string{"g:a", "g:b"}},
		"a hub with its resource":   {graph: withHub(planGraph(3, 20, 0), "aws_thing.r1"), max: 30, want: groupIDs("g:aws_thing.r%d", 3)},
	} {
		t.Run(name, func(t *testing.T) {
			d, p := draw(t, tc.graph, Options{MaxNodes: tc.max})
			if d.Folded != (tc.want != nil) {
				t.Errorf("Folded %v", d.Folded)
			}
			if tc.want == nil {
				tc.want = nodeIDs(tc.graph)
			}
			got := slices.Sorted(func(yield func(string) bool) {
				for id := range p.nodes {
					yield(id)
				}
			})
			if !slices.Equal(got, tc.want) {
				t.Fatalf("drawn %q, want %q", got, tc.want)
			}
			member := checkMembers(t, tc.graph, d, p)
			checkReduced(t, foldedEdges(tc.graph, member), p)
		})
	}
}

// withHub adds to g a bookkeeping node (kind other) in group, as a
// resource's expansion is, that every node of the group waits for.
func withHub(g Graph, group string) Graph {
	hub := group + " (expand)"
	var edges []Edge
	for _, n := range g.Nodes {
		if n.Group == group {
			edges = append(edges, Edge{From: n.ID, To: hub})
		}
	}
	g.Nodes = append(g.Nodes, Node{ID: hub, Kind: "other", Group: group})
	g.Edges = append(g.Edges, edges...)
	return g
}

// bipartite is n nodes in group a each waiting for every one of n nodes
// in group b: n² edges, none implied by another.
func bipartite(n int) Graph {
	var g Graph
	for i := range n {
		g.Nodes = append(g.Nodes, Node{ID: fmt.Sprintf("a%d", i), Group: "a"}, Node{ID: fmt.Sprintf("b%d", i), Group: "b"})
		for j := range n {
			g.Edges = append(g.Edges, Edge{From: fmt.Sprintf("a%d", i), To: fmt.Sprintf("b%d", j)})
		}
	}
	return g
}

// refined is how planGraph(40, 3, 4) draws in 30 nodes: 4 modules of 10
// resources each, two of them (first by key) split into their resources.
func refined() []string {
	ids := []string{"g:module.m2", "g:module.m3"}
	for r := range 40 {
		if r%4 < 2 {
			ids = append(ids, fmt.Sprintf("g:module.m%d.aws_thing.r%d", r%4, r))
		}
	}
	sort.Strings(ids)
	return ids
}

func groupIDs(format string, n int) []string {
	var ids []string
	for i := range n {
		ids = append(ids, fmt.Sprintf(format, i))
	}
	sort.Strings(ids)
	return ids
}

func nodeIDs(g Graph) []string {
	var ids []string
	for _, n := range g.Nodes {
		ids = append(ids, n.ID)
	}
	sort.Strings(ids)
	return ids
}

// checkMembers requires Members to put every node of g in exactly one
// drawn node, and each fold to say so in its label, title and kind. It
// returns the drawn node of each node.
func checkMembers(t *testing.T, g Graph, d *Drawing, p *parsed) map[string]string {
	t.Helper()
	kinds := map[string]string{}
	for _, n := range g.Nodes {
		kinds[n.ID] = kindClass(n.Kind)
	}
	member := map[string]string{}
	for id, ms := range d.Members {
		if !slices.IsSorted(ms) || len(ms) == 0 {
			t.Errorf("Members[%q] = %q: want sorted node ids", id, ms)
		}
		// The kind members share, those of kind other aside.
		shared := map[string]bool{}
		for _, m := range ms {
			if _, dup := member[m]; dup {
				t.Errorf("node %q is in %q and %q", m, member[m], id)
			}
			member[m] = id
			if kinds[m] != "other" {
				shared[kinds[m]] = true
			}
		}
		kind := "other"
		if len(shared) == 1 {
			for k := range shared {
				kind = k
			}
		}
		checkFoldNode(t, id, ms, kind, p.nodes[id])
	}
	if len(member) != len(g.Nodes) {
		t.Errorf("Members covers %d nodes of %d", len(member), len(g.Nodes))
	}
	return member
}

func checkFoldNode(t *testing.T, id string, members []string, kind string, n svgItem) {
	t.Helper()
	if len(members) == 1 {
		if members[0] != id {
			t.Errorf("drawn node %q stands for %q alone", id, members[0])
		}
		return
	}
	count := " × " + strconv.Itoa(len(members))
	key, _ := strings.CutPrefix(id, "g:")
	if n.Title != key+count || !strings.HasSuffix(n.Text, count) || n.Class != "node k-"+kind {
		t.Errorf("fold %q of %d: title %q, text %q, class %q (want kind %s)", id, len(members), n.Title, n.Text, n.Class, kind)
	}
}

// TestFoldLevels checks which fold applies when groups are too many:
// module paths (split back into groups as far as the limit allows),
// module paths without instance keys, top-level modules, and finally the
// largest folds and "(other)".
func TestFoldLevels(t *testing.T) {
	// 3 groups in each of 4 instances of module.a["k"].module.b, 6 in the
	// root, 2 in module.c: 20 groups of 2 nodes.
	var nodes []Node
	add := func(group string, n int) {
		for i := range n {
			nodes = append(nodes, Node{ID: fmt.Sprintf("%s[%d]", group, i), Group: group})
		}
	}
	for k := range 4 {
		for r := range 3 {
			add(fmt.Sprintf(`module.a["k%d"].module.b.aws_x.r%d`, k, r), 2)
		}
	}
	for r := range 6 {
		add(fmt.Sprintf("aws_y.r%d", r), 2)
	}
	add("module.c.aws_z.r0", 2)
	add("module.c.aws_z.r1", 2)
	for limit, want := range map[int][]string{
		20: {`module.a["k0"].module.b.aws_x.r0`, `module.c.aws_z.r1`},                                                  // by group: 20 keys
		7:  {`module.a["k0"].module.b`, `module.a["k3"].module.b`, "(root)", "module.c.aws_z.r0", "module.c.aws_z.r1"}, // module.c split
		3:  {"module.a.module.b", "(root)", "module.c"},
		2:  {"module.a", "(other)"}, // module.a has 24 nodes, the root 12, module.c 4
	} {
		d := fold(nodes, nil, limit)
		keys := map[string]bool{}
		for _, n := range d.nodes {
			keys[strings.TrimPrefix(n.id, "g:")] = true
		}
		if len(d.nodes) > limit {
			t.Errorf("limit %d: %d nodes drawn", limit, len(d.nodes))
		}
		for _, k := range want {
			if !keys[k] {
				t.Errorf("limit %d: no fold %q among %v", limit, k, keys)
			}
		}
	}
}

func TestModulePrefix(t *testing.T) {
	for _, tc := range []struct {
		group string
		depth int
		keys  bool
		want  string
	}{
		{"aws_x.y", -1, true, "(root)"},
		{`provider["registry.terraform.io/hashicorp/aws"]`, -1, true, "(root)"},
		{"output.x", -1, true, "(root)"},
		{"module.a.aws_x.y", -1, true, "module.a"},
		{"module.a.data.aws_x.y", -1, true, "module.a"},
		{`module.a["x.y"].module.b[0].aws_x.y`, -1, true, `module.a["x.y"].module.b[0]`},
		{`module.a["x.y"].module.b[0].aws_x.y`, -1, false, "module.a.module.b"},
		{`module.a["x.y"].module.b[0].aws_x.y`, 1, true, `module.a["x.y"]`},
		{`module.a["q\"].module.z"].aws_x.y`, -1, true, `module.a["q\"].module.z"]`},
		{"module.a", -1, true, "module.a"},
		{"module", -1, true, "(root)"},
	} {
		if got := modulePrefix(tc.group, tc.depth, tc.keys); got != tc.want {
			t.Errorf("modulePrefix(%q, %d, %v) = %q, want %q", tc.group, tc.depth, tc.keys, got, tc.want)
		}
	}
}
