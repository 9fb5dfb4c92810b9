package explorer

import (
	"strconv"

	"github.com/cairn-iac/cairn/internal/graphsvg"
	"github.com/cairn-iac/cairn/internal/plans"
)

// The operation graph apply runs has nodes people care about (an
// operation on an object, a provider's configuration, a root output) and
// bookkeeping nodes that only order them: joins and expands of
// resources, locals, module variables and outputs, module expansions.
// The page draws the first kind and contracts the second away, joining
// each drawn node to the drawn nodes it reaches through bookkeeping only,
// so every dependency apply honours stays visible, transitively.
//
// A join stands between every instance of a resource and everything that
// refers to it: contracting one with m dependents and n members would
// draw m·n edges where the plan has m+n. Such a join stays drawn, as a
// node of kind "other", once it reaches more than hubLimit nodes.
const hubLimit = 16

// drawn reports whether a node of the plan graph is drawn for itself.
func drawn(op plans.Op) bool {
	switch op {
	case plans.OpEvalLocal, plans.OpExpand, plans.OpJoinResource, plans.OpJoinUpdated, plans.OpJoinDestroyed,
		plans.OpEvalVariable, plans.OpEvalModuleOutput, plans.OpExpandModule:
		return false
	}
	return true
}

// nodeID is the id of plan graph node i in the drawing and the page.
func nodeID(i int) string { return "n" + strconv.Itoa(i) }

// contraction computes, for each bookkeeping node, the drawn nodes it
// reaches through bookkeeping nodes only.
type contraction struct {
	g     *plans.Graph
	kept  []bool  // drawn for itself, or a hub
	reach [][]int // of a bookkeeping node, once computed
	done  []bool
	users []int // how many nodes depend on each node
}

func newContraction(g *plans.Graph) *contraction {
	c := &contraction{g: g, kept: make([]bool, len(g.Nodes)), reach: make([][]int, len(g.Nodes)),
		done: make([]bool, len(g.Nodes)), users: make([]int, len(g.Nodes))}
	for i, n := range g.Nodes {
		c.kept[i] = drawn(n.Op)
		for _, d := range n.Deps {
			c.users[d]++
		}
	}
	return c
}

// targets returns the drawn nodes node i waits for directly, once
// bookkeeping is contracted.
func (c *contraction) targets(i int) []int {
	var out []int
	seen := map[int]bool{}
	for _, d := range c.g.Nodes[i].Deps {
		for _, t := range c.through(d) {
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	return out
}

// through returns the drawn nodes that stand for node d: d itself when
// it is drawn, else what it reaches. A bookkeeping node that reaches
// many nodes and is used by several becomes a hub, drawn itself.
func (c *contraction) through(d int) []int {
	if c.kept[d] {
		return []int{d}
	}
	if !c.done[d] {
		c.done[d] = true
		// The graph is acyclic (apply walks it), so the recursion ends;
		// its depth is the longest chain of bookkeeping nodes.
		c.reach[d] = c.targets(d)
		if len(c.reach[d]) > hubLimit && c.users[d] > 1 {
			c.kept[d] = true
			return []int{d}
		}
	}
	return c.reach[d]
}

// operationGraph is the graph the page draws from the plan's operation
// graph, and the entry (index in Model.Changes) of each node that acts on
// a change the page lists.
func operationGraph(p *plans.Plan, changeEntry map[*plans.ResourceInstanceChange]int) (graphsvg.Graph, map[string]int) {
	c := newContraction(p.Graph)
	var g graphsvg.Graph
	entries := map[string]int{}
	targets := make([][]int, len(p.Graph.Nodes))
	for i, n := range p.Graph.Nodes {
		if drawn(n.Op) {
			targets[i] = c.targets(i)
		}
	}
	// Contracting found the hubs, and what each reaches.
	for i, n := range p.Graph.Nodes {
		if c.kept[i] && !drawn(n.Op) {
			targets[i] = c.reach[i]
		}
	}
	for i, n := range p.Graph.Nodes {
		if !c.kept[i] {
			continue
		}
		id := nodeID(i)
		g.Nodes = append(g.Nodes, graphsvg.Node{ID: id, Label: p.NodeName(i), Kind: nodeKind(p, n), Group: nodeGroup(p, n)})
		if n.Op.ChangeOp() {
			if e, ok := changeEntry[p.Changes[n.Ref]]; ok {
				entries[id] = e
			}
		}
		for _, t := range targets[i] {
			g.Edges = append(g.Edges, graphsvg.Edge{From: id, To: nodeID(t)})
		}
	}
	return g, entries
}

// nodeKind is the colour of a node: the action of its change, or what
// else it is.
func nodeKind(p *plans.Plan, n plans.Node) string {
	switch {
	case n.Op.ChangeOp():
		switch a := p.Changes[n.Ref].Action; {
		case a == plans.Create:
			return "create"
		case a == plans.Update:
			return "update"
		case a.IsReplace():
			return "replace"
		case a == plans.Delete || a == plans.Forget:
			return "delete"
		case a == plans.Read:
			return "read"
		}
		return "noop"
	case n.Op == plans.OpConfigureProvider:
		return "provider"
	case n.Op == plans.OpEvalOutput || n.Op == plans.OpRemoveOutput:
		return "output"
	}
	return "other"
}

// nodeGroup is what a node folds into in a large graph: its resource's
// configuration address (every instance, every operation), or for other
// nodes a name of their kind.
func nodeGroup(p *plans.Plan, n plans.Node) string {
	switch {
	case n.Op.ChangeOp():
		return p.Changes[n.Ref].Addr.ContainingResource().Config().String()
	case n.Op == plans.OpConfigureProvider:
		return p.Graph.Providers[n.Ref].String()
	case n.Op == plans.OpEvalOutput || n.Op == plans.OpRemoveOutput:
		return "outputs"
	case n.Op == plans.OpExpand:
		// Drawn only as a hub: with the same resource's expansions in
		// other module instances, not with other resources' (which
		// would draw dependencies between them), nor among the
		// resource's changes, whose folds list only changes.
		return p.Graph.Resources[n.Ref].Config().String() + " (expand)"
	case n.Op == plans.OpJoinResource || n.Op == plans.OpJoinUpdated || n.Op == plans.OpJoinDestroyed:
		return p.Graph.Resources[n.Ref].Config().String()
	}
	return "other"
}

// graphModel ties a drawing to the page.
func graphModel(g graphsvg.Graph, d *graphsvg.Drawing, entries map[string]int) *Graph {
	m := &Graph{Entries: entries, Folded: d.Folded}
	if !d.Folded {
		return m
	}
	label := make(map[string]string, len(g.Nodes))
	for _, n := range g.Nodes {
		label[n.ID] = n.Label
	}
	m.Members, m.Labels = map[string][]string{}, map[string]string{}
	for id, members := range d.Members {
		if len(members) == 1 && members[0] == id {
			continue
		}
		m.Members[id] = members
		for _, mid := range members {
			// A member with an entry is listed by its entry's address:
			// 10,000 labels would weigh half a megabyte.
			if _, ok := entries[mid]; !ok {
				m.Labels[mid] = label[mid]
			}
		}
	}
	return m
}
