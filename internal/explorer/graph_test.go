package explorer

import (
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/graphsvg"
	"github.com/google/go-cmp/cmp"
)

// TestOperationGraphKeepsDependencies checks the contraction of the
// operation graph: every drawn node reaches, in the drawing, exactly the
// drawn nodes it reaches in the plan's graph, and bookkeeping nodes are
// drawn only as hubs, when contracting them would multiply edges. The
// "hub" scenario has a join of 20 instances that 20 others wait for.
func TestOperationGraphKeepsDependencies(t *testing.T) {
	cases := scenarios()
	cases["hub"] = scenario{steps: []map[string]string{{"main.tf": `
resource "test_thing" "a" {
  count = 20
  name  = "a${count.index}"
}
resource "test_thing" "b" {
  count = 20
  name  = join(",", test_thing.a[*].id)
}
`}}}
	for name, sc := range cases {
		t.Run(name, func(t *testing.T) {
			p := sc.run(t).plan
			g, _ := operationGraph(p, nil)
			drawnIx := map[int]bool{}
			hubs := 0
			for _, n := range g.Nodes {
				i, _ := strconv.Atoi(strings.TrimPrefix(n.ID, "n"))
				drawnIx[i] = true
				if !drawn(p.Graph.Nodes[i].Op) {
					hubs++
				}
			}
			for _, n := range g.Nodes {
				i, _ := strconv.Atoi(strings.TrimPrefix(n.ID, "n"))
				want := reachable(p.Graph, i, false, drawnIx)
				if diff := cmp.Diff(want, reachableDrawn(g, n.ID)); diff != "" {
					t.Errorf("%s reaches (-plan graph +drawing):\n%s", p.NodeName(i), diff)
				}
			}
			if name == "hub" && hubs != 1 {
				t.Errorf("%d hubs drawn, want the join of test_thing.a", hubs)
			}
			if name != "hub" && hubs != 0 {
				t.Errorf("%d hubs drawn in a small plan", hubs)
			}
		})
	}
}

// TestOperationGraphGroupsHubs checks that a hub folds by its resource:
// the expansion of test_thing.b, which every b waits for and which waits
// for every a, is drawn as a hub, and a large graph must fold it with
// test_thing.b's expansions only, not into a group of unrelated hubs
// from other modules that would draw dependencies between them.
func TestOperationGraphGroupsHubs(t *testing.T) {
	sc := scenario{steps: []map[string]string{{"main.tf": `
resource "test_thing" "a" {
  count = 20
  name  = "a${count.index}"
}
resource "test_thing" "b" {
  count = 20
  name  = test_thing.a[count.index].id
}
`}}}
	p := sc.run(t).plan
	g, _ := operationGraph(p, nil)
	hubs := 0
	for _, n := range g.Nodes {
		i, _ := strconv.Atoi(strings.TrimPrefix(n.ID, "n"))
		if drawn(p.Graph.Nodes[i].Op) {
			continue
		}
		hubs++
		if want := p.Graph.Resources[p.Graph.Nodes[i].Ref].Config().String() + " (expand)"; n.Group != want {
			t.Errorf("hub %s folds into %q, want %q", n.Label, n.Group, want)
		}
	}
	if hubs == 0 {
		t.Error("no hub drawn: the test no longer tests anything")
	}
}

// reachableDrawn returns the ids the drawing reaches from id, sorted.
func reachableDrawn(g graphsvg.Graph, id string) []string {
	next := map[string][]string{}
	for _, e := range g.Edges {
		next[e.From] = append(next[e.From], e.To)
	}
	seen := map[string]bool{id: true}
	stack := []string{id}
	var out []string
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range next[n] {
			if !seen[d] {
				seen[d] = true
				out = append(out, d)
				stack = append(stack, d)
			}
		}
	}
	sort.Strings(out)
	return out
}
