package planning

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/graph"
	"github.com/cairn-iac/cairn/internal/plans"
)

// applyGraphBuilder turns a plan's changes and the configuration graph into
// the operation graph apply runs. Edges stay linear in the number of
// changes: an instance waits for its own resource's expand node (which
// waits for everything the resource refers to), and dependents wait for a
// resource's join node, never for each instance of it.
type applyGraphBuilder struct {
	plan      *plans.Plan
	cg        *configGraph
	g         *plans.Graph
	vertexOf  map[int]int // config vertex → apply node
	providers map[addrs.UniqueKey]int
	expand    map[addrs.Resource]int
	join      map[addrs.Resource]int
	destroyed map[addrs.Resource]int
	deletes   map[addrs.Resource][]int
	// updates holds each resource's in-place update nodes, and updated
	// the join over them that plain deletes of its dependencies wait for.
	updates map[addrs.Resource][]int
	updated map[addrs.Resource]int
}

// buildApplyGraph builds the operation graph for a finished plan.
func buildApplyGraph(plan *plans.Plan, cg *configGraph, cfg *configs.Module) (*plans.Graph, diags.Diagnostics) {
	promoteCreateBeforeDestroy(plan, cg)
	// Each vertex needs at most two nodes and each change at most two plus
	// a join; sizing the slice once avoids copying large node arrays.
	size := 2*len(cg.vertices) + 3*len(plan.Changes)
	b := &applyGraphBuilder{
		plan: plan, cg: cg, g: &plans.Graph{Nodes: make([]plans.Node, 0, size)}, vertexOf: map[int]int{}, providers: map[addrs.UniqueKey]int{},
		expand: map[addrs.Resource]int{}, join: map[addrs.Resource]int{}, destroyed: map[addrs.Resource]int{},
		deletes: map[addrs.Resource][]int{}, updates: map[addrs.Resource][]int{}, updated: map[addrs.Resource]int{},
	}
	b.addConfigNodes()
	b.addChangeNodes()
	b.addDestroyOrdering()
	b.connectConfigDeps()
	return b.g, b.checkAcyclic()
}

// addConfigNodes adds provider, local, output, expand and join nodes.
func (b *applyGraphBuilder) addConfigNodes() {
	normal := b.plan.Mode != plans.DestroyMode
	for i, v := range b.cg.vertices {
		switch v.kind {
		case vProvider:
			n := b.g.Add(plans.Node{Kind: plans.NodeProvider, Provider: v.provider})
			b.vertexOf[i], b.providers[v.provider.UniqueKey()] = n, n
		case vLocal:
			b.vertexOf[i] = b.g.Add(plans.Node{Kind: plans.NodeLocal, Name: v.name})
		case vOutput:
			if normal {
				b.vertexOf[i] = b.g.Add(plans.Node{Kind: plans.NodeOutput, Name: v.name})
			}
		case vResource:
			if normal {
				addr := v.resource.Addr()
				abs := addr.Absolute(addrs.RootModuleInstance)
				b.expand[addr] = b.g.Add(plans.Node{Kind: plans.NodeExpand, Resource: abs})
				j := b.g.Add(plans.Node{Kind: plans.NodeResource, Resource: abs, Deps: []int{b.expand[addr]}})
				b.join[addr], b.vertexOf[i] = j, j
			}
		}
	}
}

// addChangeNodes adds one node per change (two for a replacement) and ties
// creates and updates to their resource's expand and join nodes.
func (b *applyGraphBuilder) addChangeNodes() {
	for ci, c := range b.plan.Changes {
		if c.Action == plans.NoOp {
			continue
		}
		res := c.Addr.Resource.Resource
		prov := b.providers[c.Provider.UniqueKey()]
		switch c.Action {
		case plans.Delete:
			b.addDelete(res, plans.Node{Kind: plans.NodeChange, Change: ci, Deps: []int{prov}})
		case plans.DeleteThenCreate:
			d := b.addDelete(res, plans.Node{Kind: plans.NodeChange, Change: ci, Phase: plans.DestroyPhase, Deps: []int{prov}})
			b.addCreate(res, plans.Node{Kind: plans.NodeChange, Change: ci, Phase: plans.CreatePhase, Deps: []int{prov, d}})
		case plans.CreateThenDelete:
			cn := b.addCreate(res, plans.Node{Kind: plans.NodeChange, Change: ci, Phase: plans.CreatePhase, Deps: []int{prov}})
			b.addDelete(res, plans.Node{Kind: plans.NodeChange, Change: ci, Phase: plans.DestroyPhase, Deps: []int{prov, cn}})
		default: // Create, Update, Read
			n := b.addCreate(res, plans.Node{Kind: plans.NodeChange, Change: ci, Deps: []int{prov}})
			if c.Action == plans.Update {
				b.updates[res] = append(b.updates[res], n)
			}
		}
	}
}

func (b *applyGraphBuilder) addCreate(res addrs.Resource, n plans.Node) int {
	if e, ok := b.expand[res]; ok {
		n.Deps = append(n.Deps, e)
	}
	i := b.g.Add(n)
	if j, ok := b.join[res]; ok {
		b.g.Nodes[j].Deps = append(b.g.Nodes[j].Deps, i)
	}
	return i
}

func (b *applyGraphBuilder) addDelete(res addrs.Resource, n plans.Node) int {
	i := b.g.Add(n)
	b.deletes[res] = append(b.deletes[res], i)
	return i
}

// addDestroyOrdering makes deletes run in reverse dependency order: an
// object is deleted only after every object that depends on it is deleted,
// and after its dependents have moved off it: a plain delete waits for
// the dependents' in-place updates, the destroy step of
// create-before-destroy for everything the dependents do (they must use
// the new object first).
func (b *applyGraphBuilder) addDestroyOrdering() {
	if len(b.deletes) == 0 {
		return
	}
	order := make([]addrs.Resource, 0, len(b.deletes))
	for res := range b.deletes {
		order = append(order, res)
	}
	sort.Slice(order, func(i, j int) bool { return order[i].String() < order[j].String() })
	for _, res := range order {
		b.destroyed[res] = b.g.Add(plans.Node{Kind: plans.NodeDestroyed, Resource: res.Absolute(addrs.RootModuleInstance), Deps: append([]int(nil), b.deletes[res]...)})
	}
	dependents := b.dependents()
	for _, res := range order {
		nodes := b.deletes[res]
		for _, dep := range dependents[res] {
			if dep == res {
				continue
			}
			for _, n := range nodes {
				if d, ok := b.destroyed[dep]; ok {
					b.g.Nodes[n].Deps = append(b.g.Nodes[n].Deps, d)
				}
				if j, ok := b.dependentsDone(n, dep); ok {
					b.g.Nodes[n].Deps = append(b.g.Nodes[n].Deps, j)
				}
			}
		}
	}
}

// dependentsDone returns the node a delete node n waits for so that the
// dependent resource dep no longer uses the object being deleted, if any.
//
//   - The destroy step of create-before-destroy waits for dep's join:
//     every dependent instance, created, replaced or updated, must use the
//     new object before the old one goes.
//   - A plain delete waits only for dep's in-place updates. A dependent
//     that is replaced or deleted stops using the object when its old
//     object is deleted (the destroyed join covers that); its new object
//     is planned from configuration, which no longer has what is being
//     deleted. Waiting for its create step would also close a cycle when
//     that create waits, through its references, for the replacement of
//     something the deleted object depends on.
//   - The destroy step of delete-then-create waits for neither: the
//     dependents need the new object, which needs the old one gone.
func (b *applyGraphBuilder) dependentsDone(n int, dep addrs.Resource) (int, bool) {
	node := b.g.Nodes[n]
	switch {
	case node.Phase == plans.WholeChange:
		return b.updatedJoin(dep)
	case b.plan.Changes[node.Change].Action == plans.CreateThenDelete:
		j, ok := b.join[dep]
		return j, ok
	}
	return 0, false
}

// updatedJoin returns the join over a resource's in-place updates,
// adding it on first use; ok is false when the resource has none.
func (b *applyGraphBuilder) updatedJoin(res addrs.Resource) (int, bool) {
	if j, ok := b.updated[res]; ok {
		return j, true
	}
	ups := b.updates[res]
	if len(ups) == 0 {
		return 0, false
	}
	j := b.g.Add(plans.Node{Kind: plans.NodeResource, Resource: res.Absolute(addrs.RootModuleInstance), Deps: append([]int(nil), ups...)})
	b.updated[res] = j
	return j, true
}

// dependents maps each resource to the resources that depend on it, from
// configuration and from the dependencies recorded in prior state.
func (b *applyGraphBuilder) dependents() map[addrs.Resource][]addrs.Resource {
	out := map[addrs.Resource][]addrs.Resource{}
	seen := map[[2]addrs.Resource]bool{}
	add := func(of, dep addrs.Resource) {
		k := [2]addrs.Resource{of, dep}
		if !seen[k] {
			seen[k] = true
			out[of] = append(out[of], dep)
		}
	}
	for i, deps := range b.cg.resourceDeps {
		for _, d := range deps {
			add(d.Resource, b.cg.vertices[i].resource.Addr())
		}
	}
	if prior := b.plan.PrevRunState; prior != nil {
		for _, rs := range prior.Resources {
			for _, is := range rs.Instances {
				if is.Current == nil {
					continue
				}
				for _, d := range is.Current.Dependencies {
					add(d.Resource, rs.Addr.Resource)
				}
			}
		}
	}
	return out
}

// connectConfigDeps gives provider, local, output and expand nodes the
// edges of their configuration vertices.
func (b *applyGraphBuilder) connectConfigDeps() {
	for i, v := range b.cg.vertices {
		var n int
		var ok bool
		if v.kind == vResource {
			n, ok = b.expand[v.resource.Addr()]
		} else {
			n, ok = b.vertexOf[i]
		}
		if !ok {
			continue
		}
		for _, d := range b.cg.g.Deps(i) {
			if dn, ok := b.vertexOf[d]; ok && dn != n {
				b.g.Nodes[n].Deps = append(b.g.Nodes[n].Deps, dn)
			}
		}
	}
}

// checkAcyclic reports a cycle in the operation graph. It means planning
// made contradictory ordering decisions, which is Cairn's bug, not the
// user's.
func (b *applyGraphBuilder) checkAcyclic() diags.Diagnostics {
	g := graph.New(len(b.g.Nodes))
	for i, n := range b.g.Nodes {
		for _, d := range n.Deps {
			g.Connect(i, d)
		}
	}
	cycles := g.Cycles()
	if len(cycles) == 0 {
		return nil
	}
	var names []string
	for _, v := range cycles[0] {
		names = append(names, b.nodeName(v))
	}
	return diags.Diagnostics{diags.Errorf("Cycle in the operation graph",
		"The changes cannot be ordered: %s. This is a bug in Cairn's planner; please report it with the configuration.", strings.Join(names, " → "))}
}

func (b *applyGraphBuilder) nodeName(i int) string {
	n := b.g.Nodes[i]
	switch n.Kind {
	case plans.NodeChange:
		c := b.plan.Changes[n.Change]
		return fmt.Sprintf("%s (%s%s)", c.Addr, c.Action, phaseSuffix(n.Phase))
	case plans.NodeProvider:
		return n.Provider.String()
	case plans.NodeLocal:
		return "local." + n.Name
	case plans.NodeOutput:
		return "output." + n.Name
	}
	return fmt.Sprintf("%s (%c)", n.Resource, n.Kind)
}

func phaseSuffix(p plans.Phase) string {
	switch p {
	case plans.DestroyPhase:
		return ", destroy step"
	case plans.CreatePhase:
		return ", create step"
	}
	return ""
}

// promoteCreateBeforeDestroy makes every replaced dependency of a
// create_before_destroy replacement create-before-destroy too, as
// Terraform does: otherwise the old dependent would have to outlive its
// dependency's old object, which delete-then-create removes first.
func promoteCreateBeforeDestroy(plan *plans.Plan, cg *configGraph) {
	byRes := map[addrs.Resource][]*plans.ResourceInstanceChange{}
	for _, c := range plan.Changes {
		byRes[c.Addr.Resource.Resource] = append(byRes[c.Addr.Resource.Resource], c)
	}
	for changed := true; changed; {
		changed = false
		for i, deps := range cg.resourceDeps {
			if !anyAction(byRes[cg.vertices[i].resource.Addr()], plans.CreateThenDelete) {
				continue
			}
			for _, d := range deps {
				for _, c := range byRes[d.Resource] {
					if c.Action == plans.DeleteThenCreate {
						c.Action, changed = plans.CreateThenDelete, true
					}
				}
			}
		}
	}
}

func anyAction(cs []*plans.ResourceInstanceChange, a plans.Action) bool {
	for _, c := range cs {
		if c.Action == a {
			return true
		}
	}
	return false
}
