package graphsvg

import (
	"slices"
	"strings"
	"testing"
)

// TestReduce checks which edges the transitive reduction keeps, "a>b"
// meaning a waits for b.
func TestReduce(t *testing.T) {
	for name, tc := range map[string]struct{ edges, want string }{
		"chain":                 {"b>a c>b", "b>a c>b"},
		"shortcut":              {"b>a c>b c>a", "b>a c>b"},
		"provider fan":          {"a>p b>p b>a c>p c>b d>p d>a", "a>p b>a c>b d>a"},
		"diamond":               {"t>l t>r l>b r>b t>b", "l>b r>b t>l t>r"},
		"two ways, both kept":   {"c>a c>b", "c>a c>b"},
		"cycle kept whole":      {"u>v u>w v>w w>v", "u>v u>w v>w w>v"},
		"shortcut past a cycle": {"v>w w>v x>v x>w y>x y>v", "v>w w>v x>v x>w y>x"},
		"no edges":              {"", ""},
	} {
		t.Run(name, func(t *testing.T) {
			d := &drawnGraph{edges: parseEdges(tc.edges)}
			seen := map[string]bool{}
			for _, e := range d.edges {
				for _, id := range []string{e.From, e.To} {
					if !seen[id] {
						seen[id] = true
						d.nodes = append(d.nodes, drawnNode{id: id})
					}
				}
			}
			d.edges = sortEdges(d.edges)
			reduce(d)
			if got, want := formatEdges(d.edges), formatEdges(sortEdges(parseEdges(tc.want))); got != want {
				t.Errorf("kept %q, want %q", got, want)
			}
		})
	}
}

func parseEdges(s string) []Edge {
	var edges []Edge
	for _, f := range strings.Fields(s) {
		from, to, _ := strings.Cut(f, ">")
		edges = append(edges, Edge{From: from, To: to})
	}
	return edges
}

func formatEdges(edges []Edge) string {
	var out []string
	for _, e := range edges {
		out = append(out, e.From+">"+e.To)
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}
