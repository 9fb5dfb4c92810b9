package graph

// Cycles returns every cycle of the graph, each as the vertices of one
// strongly connected component with more than one vertex (or a vertex that
// depends on itself), in a deterministic order. It runs in O(V+E).
func (g *Graph) Cycles() [][]int {
	t := tarjan{g: g, index: make([]int, len(g.deps)), low: make([]int, len(g.deps)), onStack: make([]bool, len(g.deps))}
	for i := range t.index {
		t.index[i] = -1
	}
	for v := range g.deps {
		if t.index[v] < 0 {
			t.visit(v)
		}
	}
	return t.cycles
}

// tarjan finds strongly connected components iteratively, so a 10,000-long
// chain does not exhaust the goroutine stack.
type tarjan struct {
	g       *Graph
	next    int
	index   []int
	low     []int
	onStack []bool
	stack   []int
	cycles  [][]int
}

type frame struct{ v, edge int }

func (t *tarjan) visit(root int) {
	call := []frame{{v: root}}
	t.open(root)
	for len(call) > 0 {
		f := &call[len(call)-1]
		deps := t.g.deps[f.v]
		if f.edge < len(deps) {
			d := deps[f.edge]
			f.edge++
			switch {
			case t.index[d] < 0:
				t.open(d)
				call = append(call, frame{v: d})
			case t.onStack[d]:
				t.low[f.v] = min(t.low[f.v], t.index[d])
			}
			continue
		}
		v := f.v
		call = call[:len(call)-1]
		if len(call) > 0 {
			p := call[len(call)-1].v
			t.low[p] = min(t.low[p], t.low[v])
		}
		if t.low[v] == t.index[v] {
			t.close(v)
		}
	}
}

func (t *tarjan) open(v int) {
	t.index[v], t.low[v] = t.next, t.next
	t.next++
	t.stack = append(t.stack, v)
	t.onStack[v] = true
}

func (t *tarjan) close(v int) {
	var scc []int
	for {
		w := t.stack[len(t.stack)-1]
		t.stack = t.stack[:len(t.stack)-1]
		t.onStack[w] = false
		scc = append(scc, w)
		if w == v {
			break
		}
	}
	if len(scc) > 1 || t.selfLoop(v) {
		// Reverse so the cycle reads in dependency order from where the
		// search entered it.
		for i, j := 0, len(scc)-1; i < j; i, j = i+1, j-1 {
			scc[i], scc[j] = scc[j], scc[i]
		}
		t.cycles = append(t.cycles, scc)
	}
}

func (t *tarjan) selfLoop(v int) bool {
	for _, d := range t.g.deps[v] {
		if d == v {
			return true
		}
	}
	return false
}
