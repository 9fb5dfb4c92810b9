package planning

import (
	"sort"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/plans"
)

// addDestroyOrdering makes deletes run in reverse dependency order: an
// object is deleted only after every object that depends on it is deleted,
// and after its dependents have moved off it: a plain delete waits for
// the dependents' in-place updates, the destroy step of
// create-before-destroy for everything the dependents do (they must use
// the new object first).
func (b *applyGraphBuilder) addDestroyOrdering() {
	var order []*resourceNodes
	for _, r := range b.resources {
		if len(r.deletes) > 0 {
			order = append(order, r)
		}
	}
	if len(order) == 0 {
		return
	}
	sort.Slice(order, func(i, j int) bool { return order[i].addr.Less(order[j].addr) })
	for _, r := range order {
		r.destroyed = b.g.Add(plans.Node{Op: plans.OpJoinDestroyed, Ref: r.ref, Deps: append([]int(nil), r.deletes...)})
	}
	dependents := b.dependents()
	for _, r := range order {
		for _, dep := range dependents[r.addr.UniqueKey()] {
			if dep == r {
				continue
			}
			for _, n := range r.deletes {
				if dep.destroyed >= 0 {
					b.g.Nodes[n].Deps = append(b.g.Nodes[n].Deps, dep.destroyed)
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
func (b *applyGraphBuilder) dependentsDone(n int, dep *resourceNodes) (int, bool) {
	switch b.plan.Changes[b.g.Nodes[n].Ref].Action {
	case plans.Delete:
		return b.updatedJoin(dep)
	case plans.CreateThenDelete:
		return dep.join, dep.join >= 0
	}
	return 0, false
}

// updatedJoin returns the join over a resource's in-place updates,
// adding it on first use; ok is false when the resource has none.
func (b *applyGraphBuilder) updatedJoin(r *resourceNodes) (int, bool) {
	if r.updated >= 0 {
		return r.updated, true
	}
	if len(r.updates) == 0 {
		return 0, false
	}
	r.updated = b.g.Add(plans.Node{Op: plans.OpJoinUpdated, Ref: b.operand(r), Deps: append([]int(nil), r.updates...)})
	return r.updated, true
}

// dependents maps each resource (by AbsResource key) to the resources that
// depend on it, from configuration (in each module instance) and from the
// dependencies recorded in prior state. Dependencies name configuration
// resources; each stands for the instances of that resource on the
// dependent's module path, or all of them in other modules.
func (b *applyGraphBuilder) dependents() map[addrs.UniqueKey][]*resourceNodes {
	out := map[addrs.UniqueKey][]*resourceNodes{}
	seen := map[[2]*resourceNodes]bool{}
	add := func(of, dep addrs.AbsResource) {
		o, d := b.resource(of), b.resource(dep)
		if pair := [2]*resourceNodes{o, d}; !seen[pair] {
			seen[pair] = true
			out[of.UniqueKey()] = append(out[of.UniqueKey()], d)
		}
	}
	inState := map[addrs.UniqueKey][]addrs.AbsResource{}
	if prior := b.plan.PrevRunState; prior != nil {
		for _, rs := range prior.Resources {
			k := rs.Addr.Config().UniqueKey()
			inState[k] = append(inState[k], rs.Addr)
		}
	}
	instancesOf := func(d addrs.ConfigResource, from addrs.ModuleInstance) []addrs.AbsResource {
		if len(d.Module) <= len(from) && from[:len(d.Module)].Module().Equal(d.Module) {
			return []addrs.AbsResource{d.Absolute(from[:len(d.Module)])}
		}
		out := append([]addrs.AbsResource(nil), inState[d.UniqueKey()]...)
		for _, m := range b.moduleInstances(d.Module) {
			out = append(out, d.Absolute(m))
		}
		return out
	}
	for i, deps := range b.cg.resourceDeps {
		v := b.cg.vertices[i]
		for _, m := range b.moduleInstances(v.module) {
			for _, d := range deps {
				for _, of := range instancesOf(d.Config(), m) {
					add(of, v.resource.Addr().Absolute(m))
				}
			}
		}
	}
	if prior := b.plan.PrevRunState; prior != nil {
		for _, rs := range prior.Resources {
			for _, is := range rs.Instances {
				if is.Current == nil {
					continue
				}
				for _, d := range is.Current.Dependencies {
					for _, of := range instancesOf(d.Config(), rs.Addr.Module) {
						add(of, rs.Addr)
					}
				}
			}
		}
	}
	return out
}
