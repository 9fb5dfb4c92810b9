package graphsvg

import (
	"slices"

	"github.com/cairn-iac/cairn/internal/graph"
)

// reduce drops the edges implied by a longer path (a transitive
// reduction, as `terraform graph` draws): what a node waits for, directly
// or not, is unchanged, and the edges left are the ones a reader follows.
// It is also what keeps the layout fast: an edge spanning k columns
// passes through k-1 virtual nodes, and an edge from every resource to
// its provider is exactly such a long edge, implied by the resource's
// other dependencies. Cycles (folds can make them) are kept whole: reduction
// runs on the graph of strongly connected components.
func reduce(d *drawnGraph) {
	index := d.index()
	g := graph.New(len(d.nodes))
	for _, e := range d.edges {
		g.Connect(index[e.From], index[e.To])
	}
	comp, count := components(g)
	succ := make([][]int, count) // component → components it waits for, once each
	for v := range d.nodes {
		for _, w := range g.Deps(v) {
			if comp[v] != comp[w] {
				succ[comp[v]] = append(succ[comp[v]], comp[w])
			}
		}
	}
	for c := range succ {
		succ[c] = uniqueInts(succ[c])
	}
	implied := impliedEdges(succ)
	kept := d.edges[:0]
	for _, e := range d.edges {
		f, t := comp[index[e.From]], comp[index[e.To]]
		if f == t || !implied[[2]int{f, t}] {
			kept = append(kept, e)
		}
	}
	d.edges = kept
}

// components numbers the strongly connected components of g: one per
// cycle graph.Cycles reports, then one per vertex in no cycle.
func components(g *graph.Graph) (comp []int, count int) {
	comp = make([]int, g.Len())
	for i := range comp {
		comp[i] = -1
	}
	for _, cycle := range g.Cycles() {
		for _, v := range cycle {
			comp[v] = count
		}
		count++
	}
	for v := range comp {
		if comp[v] < 0 {
			comp[v] = count
			count++
		}
	}
	return comp, count
}

// impliedEdges returns the edges c → s of the acyclic graph succ that
// another path from c to s also gives. It computes what each component
// reaches as bit sets, dependencies first (O(E·V/64)).
func impliedEdges(succ [][]int) map[[2]int]bool {
	words := (len(succ) + 63) / 64
	reach := make([][]uint64, len(succ))
	implied := map[[2]int]bool{}
	for _, c := range topoOrder(succ) { // each after all it waits for
		reach[c] = make([]uint64, words)
		via := make([]uint64, words) // reached through some successor
		for _, s := range succ[c] {
			orInto(via, reach[s])
		}
		copy(reach[c], via)
		for _, s := range succ[c] {
			if via[s/64]&(1<<(s%64)) != 0 {
				implied[[2]int{c, s}] = true
			}
			reach[c][s/64] |= 1 << (s % 64)
		}
	}
	return implied
}

// topoOrder orders the vertices of the acyclic graph succ so that each
// comes after everything it waits for.
func topoOrder(succ [][]int) []int {
	waiting := make([]int, len(succ)) // successors not yet ordered
	pred := make([][]int, len(succ))
	var order []int
	for c, ss := range succ {
		waiting[c] = len(ss)
		for _, s := range ss {
			pred[s] = append(pred[s], c)
		}
		if len(ss) == 0 {
			order = append(order, c)
		}
	}
	for i := 0; i < len(order); i++ {
		for _, p := range pred[order[i]] {
			if waiting[p]--; waiting[p] == 0 {
				order = append(order, p)
			}
		}
	}
	return order
}

func orInto(dst, src []uint64) {
	for i, w := range src {
		dst[i] |= w
	}
}

// uniqueInts sorts s and removes repeats.
func uniqueInts(s []int) []int {
	if len(s) < 2 {
		return s
	}
	slices.Sort(s)
	return slices.Compact(s)
}
