package graphsvg

// layered is a drawing in the making: d's nodes (indices below real) and
// the virtual nodes long edges pass through, each in a column (rank),
// joined by segments between neighbouring columns. Layout edges run left
// to right, from what runs first (an Edge's To) to what waits (its From).
type layered struct {
	d      *drawnGraph
	real   int       // nodes below this index are d's; the rest are virtual
	rank   []int     // column of each node
	width  []float64 // box width, 0 for a virtual node
	succ   [][]int   // segments to the next column, in edge order
	pred   [][]int   // segments from the previous column, in edge order
	layers [][]int   // nodes of each column, top to bottom
	pos    []int     // index of each node in its column
	// chains are by index in d.edges: the nodes an edge passes through,
	// leftmost first; reversed marks an edge drawn right to left, the one
	// of a cycle that had to give way.
	chains   [][]int
	reversed []bool
}

// newLayered breaks cycles, ranks the nodes and adds the virtual nodes;
// the order within each column is the one order refines.
func newLayered(d *drawnGraph) *layered {
	n := len(d.nodes)
	l := &layered{d: d, real: n, width: make([]float64, n)}
	for i, node := range d.nodes {
		l.width[i] = nodeWidth(node.text)
	}
	ends := l.orient()
	l.rank = ranks(n, ends)
	l.succ, l.pred = make([][]int, n), make([][]int, n)
	l.chains = make([][]int, len(ends))
	for i, e := range ends {
		l.chains[i] = l.addChain(e[0], e[1])
	}
	l.initialOrder()
	return l
}

// orient turns each edge into a layout edge [left, right], reversing the
// back edges a depth-first search (nodes and edges in their sorted order,
// so deterministic) meets: those close a cycle, and the graph left is
// acyclic. The operation graph has none; a state's dependencies or a
// fold can.
func (l *layered) orient() [][2]int {
	index := l.d.index()
	ends := make([][2]int, len(l.d.edges))
	out := make([][]int, l.real) // node → edges leaving it, left to right
	for i, e := range l.d.edges {
		ends[i] = [2]int{index[e.To], index[e.From]}
		out[ends[i][0]] = append(out[ends[i][0]], i)
	}
	l.reversed = make([]bool, len(ends))
	const (
		unseen = iota
		open
		done
	)
	state := make([]int, l.real)
	type frame struct{ v, next int }
	for root := range l.real {
		if state[root] != unseen {
			continue
		}
		stack := []frame{{root, 0}}
		state[root] = open
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.next == len(out[f.v]) {
				state[f.v] = done
				stack = stack[:len(stack)-1]
				continue
			}
			e := out[f.v][f.next]
			f.next++
			switch w := ends[e][1]; state[w] {
			case open:
				l.reversed[e] = true
			case unseen:
				state[w] = open
				stack = append(stack, frame{w, 0})
			}
		}
	}
	for i, r := range l.reversed {
		if r {
			ends[i] = [2]int{ends[i][1], ends[i][0]}
		}
	}
	return ends
}

// ranks gives each of n nodes its column for the acyclic layout edges
// ends: the longest path from a node that waits for nothing, so that all
// a node waits for is left of it and it sits as far left as that allows.
// Then each node that waits for nothing but has something waiting for it
// (a provider, a data source) moves right, next to the first node that
// waits for it, which shortens its edges.
func ranks(n int, ends [][2]int) []int {
	out := make([][]int, n)
	waiting := make([]int, n) // layout predecessors not yet ranked
	for _, e := range ends {
		out[e[0]] = append(out[e[0]], e[1])
		waiting[e[1]]++
	}
	rank := make([]int, n)
	var queue []int
	for v := range n {
		if waiting[v] == 0 {
			queue = append(queue, v)
		}
	}
	sources := append([]int(nil), queue...)
	for i := 0; i < len(queue); i++ {
		v := queue[i]
		for _, w := range out[v] {
			rank[w] = max(rank[w], rank[v]+1)
			if waiting[w]--; waiting[w] == 0 {
				queue = append(queue, w)
			}
		}
	}
	for _, v := range sources {
		if len(out[v]) > 0 {
			first := rank[out[v][0]]
			for _, w := range out[v] {
				first = min(first, rank[w])
			}
			rank[v] = first - 1
		}
	}
	return rank
}

// addChain joins a to b with one segment per column between them,
// through new virtual nodes, and returns the nodes passed, a and b
// included.
func (l *layered) addChain(a, b int) []int {
	chain := []int{a}
	for r := l.rank[a] + 1; r < l.rank[b]; r++ {
		v := len(l.rank)
		l.rank = append(l.rank, r)
		l.width = append(l.width, 0)
		l.succ, l.pred = append(l.succ, nil), append(l.pred, nil)
		chain = append(chain, v)
	}
	chain = append(chain, b)
	for i := 1; i < len(chain); i++ {
		l.succ[chain[i-1]] = append(l.succ[chain[i-1]], chain[i])
		l.pred[chain[i]] = append(l.pred[chain[i]], chain[i-1])
	}
	return chain
}
