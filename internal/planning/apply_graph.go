package planning

import (
	"maps"
	"slices"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/graph"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/states"
)

// applyGraphBuilder turns a plan's changes and the configuration graph into
// the operation graph apply runs: a program of operations, each naming what
// it acts on. Edges stay linear in the number of changes: an instance waits
// for its own resource's expand node (which waits for everything the
// resource refers to), and dependents wait for a resource's join node,
// never for each instance of it.
type applyGraphBuilder struct {
	plan            *plans.Plan
	cg              *configGraph
	moduleInstances func(addrs.Module) []addrs.ModuleInstance
	g               *plans.Graph

	// nodeOf maps a configuration vertex in one module instance to the
	// node its dependents wait for (a resource's join node).
	nodeOf    map[vertexInstance]int
	providers map[addrs.UniqueKey]int
	// resources holds what the graph has of each resource, by AbsResource
	// key: one map lookup per change.
	resources map[addrs.UniqueKey]*resourceNodes
}

// resourceNodes are one resource's operand and nodes. A node index of -1
// means the resource has no such node.
type resourceNodes struct {
	addr addrs.AbsResource
	ref  int // operand index in Graph.Resources, -1 until needed
	// expand and join wait for what the resource refers to and for every
	// change that leaves an object of it.
	expand, join int
	// deletes are its delete nodes and destroyed the join over them;
	// updates its in-place update nodes and updated the join over them.
	deletes, updates   []int
	destroyed, updated int
}

// vertexInstance is a configuration vertex in one module instance.
type vertexInstance struct {
	vertex int
	module string
}

// buildApplyGraph builds the operation graph for a finished plan.
// moduleInstances lists the instances of each module the plan covers.
//
// deferred gives, by validation vertex, the module instances whose
// validation rules planning could not decide; each gets a node that
// checks them again once what they refer to is applied.
func buildApplyGraph(plan *plans.Plan, cg *configGraph, moduleInstances func(addrs.Module) []addrs.ModuleInstance, deferred map[int][]addrs.ModuleInstance) (*plans.Graph, diags.Diagnostics) {
	// Each vertex needs at most two nodes and each change at most two plus
	// a join; sizing the slice once avoids copying large node arrays.
	size := 2*len(cg.vertices) + 3*len(plan.Changes)
	b := &applyGraphBuilder{
		plan: plan, cg: cg, moduleInstances: moduleInstances, g: &plans.Graph{Nodes: make([]plans.Node, 0, size)},
		nodeOf: make(map[vertexInstance]int, len(cg.vertices)), providers: map[addrs.UniqueKey]int{},
		resources: make(map[addrs.UniqueKey]*resourceNodes, len(cg.vertices)),
	}
	b.addConfigNodes()
	b.addValidationNodes(deferred)
	b.addChangeNodes()
	b.addDestroyOrdering()
	b.connectConfigDeps()
	b.addRemovedOutputs()
	return b.g, b.checkAcyclic()
}

// resource returns what the graph has of a resource, adding an empty
// record on first use.
func (b *applyGraphBuilder) resource(addr addrs.AbsResource) *resourceNodes {
	k := addr.UniqueKey()
	if r, ok := b.resources[k]; ok {
		return r
	}
	r := &resourceNodes{addr: addr, ref: -1, expand: -1, join: -1, destroyed: -1, updated: -1}
	b.resources[k] = r
	return r
}

// operand returns the resource's operand index, adding it on first use.
func (b *applyGraphBuilder) operand(r *resourceNodes) int {
	if r.ref < 0 {
		r.ref = b.g.AddResource(r.addr)
	}
	return r.ref
}

// addConfigNodes adds provider, local, output, expand and join nodes.
func (b *applyGraphBuilder) addConfigNodes() {
	normal := b.plan.Mode != plans.DestroyMode
	outputs := map[string]int{}
	for i, o := range b.plan.Outputs {
		outputs[o.Name] = i
	}
	calls := map[moduleName]int{}
	for i, e := range b.plan.ModuleExpansions {
		calls[moduleName{e.Parent.String(), e.Call}] = i
	}
	checks := checkIndex(b.plan.Checks)
	for i, v := range b.cg.vertices {
		switch v.kind {
		case vProvider:
			n := b.g.Add(plans.Node{Op: plans.OpConfigureProvider, Ref: b.g.AddProvider(v.provider)})
			b.providers[v.provider.UniqueKey()] = n
			b.nodeOf[vertexInstance{i, v.module.UnkeyedInstance().String()}] = n
		case vLocal:
			for _, m := range b.moduleInstances(v.module) {
				ref := b.g.AddLocal(addrs.LocalValue{Name: v.name}.Absolute(m))
				b.nodeOf[vertexInstance{i, m.String()}] = b.g.Add(plans.Node{Op: plans.OpEvalLocal, Ref: ref})
			}
		case vOutput:
			if !v.module.IsRoot() {
				for _, m := range b.moduleInstances(v.module) {
					ref := b.g.AddModuleOutput(addrs.AbsOutputValue{Module: m, Name: v.name})
					b.nodeOf[vertexInstance{i, m.String()}] = b.g.Add(plans.Node{Op: plans.OpEvalModuleOutput, Ref: ref})
				}
				continue
			}
			if o, ok := outputs[v.name]; ok && normal && b.plan.Outputs[o].Action != plans.Delete {
				b.nodeOf[vertexInstance{i, ""}] = b.g.Add(plans.Node{Op: plans.OpEvalOutput, Ref: o})
			}
		case vVariable:
			for _, m := range b.moduleInstances(v.module) {
				ref := b.g.AddVariable(addrs.AbsInputVariable{Module: m, Variable: addrs.InputVariable{Name: v.name}})
				b.nodeOf[vertexInstance{i, m.String()}] = b.g.Add(plans.Node{Op: plans.OpEvalVariable, Ref: ref})
			}
		case vCall:
			for _, m := range b.moduleInstances(v.module) {
				if e, ok := calls[moduleName{m.String(), v.name}]; ok {
					b.nodeOf[vertexInstance{i, m.String()}] = b.g.Add(plans.Node{Op: plans.OpExpandModule, Ref: e})
				}
			}
		case vCheck:
			b.addCheckNodes(i, v, checks)
		case vResource:
			// A destroy opens ephemeral resources too: a provider
			// configuration may need one.
			if !normal && v.resource.Mode != addrs.EphemeralResourceMode {
				continue
			}
			for _, m := range b.moduleInstances(v.module) {
				r := b.resource(v.resource.Addr().Absolute(m))
				ref := b.operand(r)
				r.expand = b.g.Add(plans.Node{Op: plans.OpExpand, Ref: ref})
				last := r.expand
				if v.resource.Mode == addrs.EphemeralResourceMode {
					last = b.g.Add(plans.Node{Op: plans.OpOpenEphemeral, Ref: ref, Deps: []int{r.expand}})
				}
				r.join = b.g.Add(plans.Node{Op: plans.OpJoinResource, Ref: ref, Deps: []int{last}})
				b.nodeOf[vertexInstance{i, m.String()}] = r.join
			}
		}
	}
}

// addChangeNodes adds one node per change (two for a replacement) and ties
// creates and updates to their resource's expand and join nodes.
func (b *applyGraphBuilder) addChangeNodes() {
	var lastProvider addrs.AbsProviderConfig
	prov := -1
	for ci, c := range b.plan.Changes {
		if c.Action == plans.NoOp {
			b.addCheck(ci, c)
			continue
		}
		if c.Action == plans.Forget {
			// Applying drops the object from state before the walk
			// (applying.forgetObjects); nothing runs for it.
			continue
		}
		res := b.resource(c.Addr.ContainingResource())
		if prov < 0 || !c.Provider.Equal(lastProvider) {
			// Changes come sorted, so runs of one provider are common.
			prov, lastProvider = b.providers[c.Provider.Config().UniqueKey()], c.Provider
		}
		node := func(op plans.Op, deps ...int) plans.Node {
			return plans.Node{Op: op, Ref: ci, Deps: append([]int{prov}, deps...)}
		}
		switch c.Action {
		case plans.Delete:
			n := node(plans.OpDelete)
			if c.DeposedKey != addrs.NotDeposed {
				n.Op, n.Deposed = plans.OpDeleteDeposed, c.DeposedKey
			}
			b.addDelete(res, n)
		case plans.DeleteThenCreate:
			d := b.addDelete(res, node(plans.OpDelete))
			b.addCreate(res, node(plans.OpCreate, d))
		case plans.CreateThenDelete:
			// The key the old object is deposed under is chosen now, so
			// both steps name the same object without sharing anything
			// at apply time.
			dk := states.NewDeposedKey(b.plan.PriorState.ResourceInstance(c.Addr))
			cn := node(plans.OpDeposeAndCreate)
			cn.Deposed = dk
			created := b.addCreate(res, cn)
			dn := node(plans.OpDeleteDeposed, created)
			dn.Deposed = dk
			b.addDelete(res, dn)
		case plans.Update:
			res.updates = append(res.updates, b.addCreate(res, node(plans.OpUpdate)))
		case plans.Create:
			b.addCreate(res, node(plans.OpCreate))
		case plans.Read:
			b.addCreate(res, node(plans.OpRead))
		}
	}
}

// addCheck adds a node checking the conditions of a no-op change whose
// resource has any, as Terraform checks them during apply: a condition
// that referred to values unknown while planning is decided there. The
// node waits for the resource's expand node (so for what the conditions
// refer to), and the resource's dependents wait for it.
func (b *applyGraphBuilder) addCheck(ci int, c *plans.ResourceInstanceChange) {
	if b.plan.Mode == plans.DestroyMode || c.DeposedKey != addrs.NotDeposed {
		return
	}
	v, ok := b.cg.resourceVertex(c.Addr.ContainingResource().Config())
	if !ok {
		return
	}
	if r := b.cg.vertices[v].resource; len(r.Preconditions) == 0 && len(r.Postconditions) == 0 {
		return
	}
	b.addCreate(b.resource(c.Addr.ContainingResource()), plans.Node{Op: plans.OpCheck, Ref: ci})
}

// addCreate adds a node that leaves an object: it waits for the resource's
// expand node, and the resource's join waits for it.
func (b *applyGraphBuilder) addCreate(res *resourceNodes, n plans.Node) int {
	if res.expand >= 0 {
		n.Deps = append(n.Deps, res.expand)
	}
	i := b.g.Add(n)
	if res.join >= 0 {
		b.g.Nodes[res.join].Deps = append(b.g.Nodes[res.join].Deps, i)
	}
	return i
}

func (b *applyGraphBuilder) addDelete(res *resourceNodes, n plans.Node) int {
	b.operand(res)
	i := b.g.Add(n)
	res.deletes = append(res.deletes, i)
	return i
}

// addRemovedOutputs adds a node removing each output the plan deletes.
func (b *applyGraphBuilder) addRemovedOutputs() {
	for i, o := range b.plan.Outputs {
		if o.Action == plans.Delete {
			b.g.Add(plans.Node{Op: plans.OpRemoveOutput, Ref: i})
		}
	}
}

// connectConfigDeps gives provider, local, output and expand nodes the
// edges of their configuration vertices, in each module instance.
func (b *applyGraphBuilder) connectConfigDeps() {
	for i, v := range b.cg.vertices {
		if v.kind == vOrphan {
			continue
		}
		insts := b.moduleInstances(v.module)
		if v.kind == vProvider {
			insts = []addrs.ModuleInstance{v.module.UnkeyedInstance()}
		}
		for _, m := range insts {
			n, ok := b.nodeOf[vertexInstance{i, m.String()}]
			if v.kind == vResource {
				r := b.resources[v.resource.Addr().Absolute(m).UniqueKey()]
				n, ok = -1, r != nil && r.expand >= 0
				if ok {
					n = r.expand
				}
			}
			if !ok {
				continue
			}
			// A child variable's argument is written in the caller, so
			// its dependencies are seen from the calling instance.
			from := m
			if v.kind == vVariable {
				from = m[:len(m)-1]
			}
			for _, d := range b.cg.g.Deps(i) {
				for _, dn := range b.depNodes(d, from) {
					if dn != n {
						b.g.Nodes[n].Deps = append(b.g.Nodes[n].Deps, dn)
					}
				}
			}
		}
	}
}

// depNodes returns the nodes of configuration vertex d as seen from module
// instance m: a provider configuration belongs to its static module; a
// vertex of m's module or of an ancestor to the instance on m's path; a
// vertex of a descendant module (a module output m refers to) to every
// instance of that module below m.
func (b *applyGraphBuilder) depNodes(d int, m addrs.ModuleInstance) []int {
	dv := b.cg.vertices[d]
	if dv.kind == vValidation && len(dv.module) <= len(m) {
		// A rule apply checks again: what refers to the variable waits
		// for the check.
		if n, ok := b.nodeOf[vertexInstance{d, m[:len(dv.module)].String()}]; ok {
			return []int{n}
		}
	}
	if dv.kind == vValidation {
		// Validation rules have no operation of their own; what refers to
		// the variable waits for what they refer to, as in OpenTofu.
		var out []int
		for _, d2 := range b.cg.g.Deps(d) {
			out = append(out, b.depNodes(d2, m)...)
		}
		return out
	}
	if dv.kind == vProvider {
		if n, ok := b.providers[dv.provider.UniqueKey()]; ok {
			return []int{n}
		}
		return nil
	}
	if len(dv.module) <= len(m) && m[:len(dv.module)].Module().Equal(dv.module) {
		if n, ok := b.nodeOf[vertexInstance{d, m[:len(dv.module)].String()}]; ok {
			return []int{n}
		}
		return nil
	}
	var out []int
	for _, inst := range b.moduleInstances(dv.module) {
		if len(inst) > len(m) && inst[:len(m)].Equal(m) {
			if n, ok := b.nodeOf[vertexInstance{d, inst.String()}]; ok {
				out = append(out, n)
			}
		}
	}
	return out
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
		names = append(names, b.plan.NodeName(v))
	}
	return diags.Diagnostics{diags.Errorf("Cycle in the operation graph",
		"The changes cannot be ordered: %s. This is a bug in Cairn's planner; please report it with the configuration.", strings.Join(names, " → "))}
}

// addValidationNodes adds, for each variable whose validation rules
// planning could not decide, a node that checks them again, waiting for
// what the rules refer to. Runs after addConfigNodes, so those nodes
// exist; the edges are added with the other configuration edges.
func (b *applyGraphBuilder) addValidationNodes(deferred map[int][]addrs.ModuleInstance) {
	if b.plan.Mode == plans.DestroyMode {
		return
	}
	for _, d := range slices.Sorted(maps.Keys(deferred)) {
		v := b.cg.vertices[d]
		for _, m := range deferred[d] {
			ref := b.g.AddVariable(addrs.AbsInputVariable{Module: m, Variable: addrs.InputVariable{Name: v.name}})
			b.nodeOf[vertexInstance{d, m.String()}] = b.g.Add(plans.Node{Op: plans.OpValidateVariable, Ref: ref})
		}
	}
}
