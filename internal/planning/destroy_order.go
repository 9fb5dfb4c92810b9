package planning

import (
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
	if len(b.deletes) == 0 {
		return
	}
	order := b.sortedKeysOf(b.deletes)
	for _, k := range order {
		deps := append([]int(nil), b.deletes[k]...)
		b.destroyed[k] = b.g.Add(plans.Node{Op: plans.OpJoinDestroyed, Ref: b.resources[k], Deps: deps})
	}
	dependents := b.dependents()
	for _, k := range order {
		for _, dep := range dependents[k] {
			if dep == k {
				continue
			}
			for _, n := range b.deletes[k] {
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
func (b *applyGraphBuilder) dependentsDone(n int, dep addrs.UniqueKey) (int, bool) {
	switch b.plan.Changes[b.g.Nodes[n].Ref].Action {
	case plans.Delete:
		return b.updatedJoin(dep)
	case plans.CreateThenDelete:
		j, ok := b.join[dep]
		return j, ok
	}
	return 0, false
}

// updatedJoin returns the join over a resource's in-place updates,
// adding it on first use; ok is false when the resource has none.
func (b *applyGraphBuilder) updatedJoin(res addrs.UniqueKey) (int, bool) {
	if j, ok := b.updated[res]; ok {
		return j, true
	}
	ups := b.updates[res]
	if len(ups) == 0 {
		return 0, false
	}
	j := b.g.Add(plans.Node{Op: plans.OpJoinUpdated, Ref: b.resources[res], Deps: append([]int(nil), ups...)})
	b.updated[res] = j
	return j, true
}

// dependents maps each resource (by AbsResource key) to the resources that
// depend on it, from configuration (in each module instance) and from the
// dependencies recorded in prior state.
func (b *applyGraphBuilder) dependents() map[addrs.UniqueKey][]addrs.UniqueKey {
	out := map[addrs.UniqueKey][]addrs.UniqueKey{}
	seen := map[[2]addrs.UniqueKey]bool{}
	add := func(of, dep addrs.AbsResource) {
		ok, dk := of.UniqueKey(), dep.UniqueKey()
		if _, known := b.addrOf[dk]; !known {
			b.addrOf[dk] = dep
		}
		pair := [2]addrs.UniqueKey{ok, dk}
		if !seen[pair] {
			seen[pair] = true
			out[ok] = append(out[ok], dk)
		}
	}
	for i, deps := range b.cg.resourceDeps {
		v := b.cg.vertices[i]
		for _, m := range b.moduleInstances(v.module) {
			for _, d := range deps {
				add(d.Absolute(m), v.resource.Addr().Absolute(m))
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
					add(d, rs.Addr)
				}
			}
		}
	}
	return out
}
