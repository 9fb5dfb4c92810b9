package graph

// Graph is a directed graph; an edge v→d means "v depends on d" (d runs
// first).
type Graph struct {
	deps [][]int
}

// New returns a graph with n vertices and no edges.
func New(n int) *Graph {
	return &Graph{deps: make([][]int, n)}
}

// Len returns the number of vertices.
func (g *Graph) Len() int { return len(g.deps) }

// AddVertex adds a vertex and returns it.
func (g *Graph) AddVertex() int {
	g.deps = append(g.deps, nil)
	return len(g.deps) - 1
}

// Connect records that v depends on d. Duplicate edges are harmless.
func (g *Graph) Connect(v, d int) {
	g.deps[v] = append(g.deps[v], d)
}

// Deps returns the vertices v depends on. The caller must not modify it.
func (g *Graph) Deps(v int) []int { return g.deps[v] }

// dependents returns, for each vertex, the vertices that depend on it, and
// each vertex's count of distinct dependencies.
func (g *Graph) dependents() (rev [][]int, indegree []int) {
	n := len(g.deps)
	rev = make([][]int, n)
	indegree = make([]int, n)
	seen := make(map[[2]int]struct{})
	for v, ds := range g.deps {
		for _, d := range ds {
			if len(ds) > 1 {
				// Only vertices with several edges can have duplicates;
				// skipping the map for the rest keeps big graphs cheap.
				k := [2]int{v, d}
				if _, dup := seen[k]; dup {
					continue
				}
				seen[k] = struct{}{}
			}
			rev[d] = append(rev[d], v)
			indegree[v]++
		}
	}
	return rev, indegree
}
