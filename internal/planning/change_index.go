package planning

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/plans"
)

// changeIndex finds a resource vertex's planned changes of current
// objects, for the dependents that look at them: replace_triggered_by
// (an instance's change; whether any instance is updated or replaced) and
// data sources' depends_on (whether any change is pending). Each lookup is
// a map access, so planning N instances that each refer to their
// counterpart stays linear in N. A nil index has no changes.
type changeIndex struct {
	byAddr     map[addrs.UniqueKey]*plans.ResourceInstanceChange
	byResource map[addrs.UniqueKey]resourceChanges
	// pendingModules holds the module instances (by String) with some
	// change that is not a no-op.
	pendingModules map[string]bool
}

// resourceChanges summarises the planned changes of one resource's current
// objects.
type resourceChanges struct {
	// pending: some change is not a no-op.
	pending bool
	// updatedOrReplaced: some instance is updated or replaced.
	updatedOrReplaced bool
}

// newChangeIndex indexes the changes of current objects among changes.
func newChangeIndex(changes []*plans.ResourceInstanceChange) *changeIndex {
	ix := &changeIndex{byAddr: make(map[addrs.UniqueKey]*plans.ResourceInstanceChange, len(changes)), byResource: map[addrs.UniqueKey]resourceChanges{}, pendingModules: map[string]bool{}}
	for _, c := range changes {
		if c.DeposedKey != addrs.NotDeposed {
			continue
		}
		ix.byAddr[c.Addr.UniqueKey()] = c
		rk := c.Addr.ContainingResource().UniqueKey()
		rc := ix.byResource[rk]
		rc.pending = rc.pending || c.Action != plans.NoOp
		if c.Action != plans.NoOp {
			ix.pendingModules[c.Addr.Module.String()] = true
		}
		rc.updatedOrReplaced = rc.updatedOrReplaced || c.Action == plans.Update || c.Action.IsReplace()
		ix.byResource[rk] = rc
	}
	return ix
}

func (ix *changeIndex) change(addr addrs.AbsResourceInstance) *plans.ResourceInstanceChange {
	if ix == nil {
		return nil
	}
	return ix.byAddr[addr.UniqueKey()]
}

// pendingIn reports whether some change in module instance m is not a
// no-op.
func (ix *changeIndex) pendingIn(m addrs.ModuleInstance) bool {
	return ix != nil && ix.pendingModules[m.String()]
}

// anyPending reports whether some change is not a no-op.
func (ix *changeIndex) anyPending() bool {
	return ix != nil && len(ix.pendingModules) > 0
}

func (ix *changeIndex) resource(r addrs.AbsResource) resourceChanges {
	if ix == nil {
		return resourceChanges{}
	}
	return ix.byResource[r.UniqueKey()]
}

// watchedResources marks the resource vertices whose changes a dependent
// looks up: every resource a managed resource with replace_triggered_by,
// or a data resource with depends_on, depends on directly (the references
// those arguments make are direct edges). Only these vertices index their
// changes; most configurations have none.
func watchedResources(cg *configGraph) []bool {
	out := make([]bool, len(cg.vertices))
	for _, ws := range cg.dataWatch {
		for _, w := range ws {
			out[w] = true
		}
	}
	for i, v := range cg.vertices {
		if v.kind != vResource || !looksAtChanges(v.resource) {
			continue
		}
		for _, d := range cg.g.Deps(i) {
			if cg.vertices[d].kind == vResource {
				out[d] = true
			}
		}
	}
	return out
}

// looksAtChanges reports whether planning r looks up the planned changes
// of the resources it refers to.
func looksAtChanges(r *configs.Resource) bool {
	if r.Mode == addrs.DataResourceMode {
		return len(r.DependsOn) > 0
	}
	return r.Managed != nil && len(r.Managed.ReplaceTriggeredBy) > 0
}

// changesOf returns the change index of the vertex planning resource r,
// for a vertex that depends on it; nil when r has no vertex.
func (p *planner) changesOf(r addrs.AbsResource) *changeIndex {
	v, ok := p.cg.resourceVertex(r.Config())
	if !ok {
		return nil
	}
	return p.resultOf(v).index
}

// changeFor returns the planned change of an instance's current object.
func (p *planner) changeFor(addr addrs.AbsResourceInstance) *plans.ResourceInstanceChange {
	return p.changesOf(addr.ContainingResource()).change(addr)
}

// anyUpdatedOrReplaced reports whether an instance of r is planned for
// update or replacement.
func (p *planner) anyUpdatedOrReplaced(r addrs.AbsResource) bool {
	return p.changesOf(r).resource(r).updatedOrReplaced
}
