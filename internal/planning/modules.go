package planning

import (
	"maps"
	"slices"
	"sort"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/plans"
)

// moduleInstances returns the instances of module m this plan covers: the
// root's one instance, or those its call expanded to (none when the call
// failed or was not planned). The call's vertex records them in its result
// before any vertex of the child runs (they all wait for it), so a reader
// always finds its module's list complete.
func (p *planner) moduleInstances(m addrs.Module) []addrs.ModuleInstance {
	if m.IsRoot() {
		return []addrs.ModuleInstance{addrs.RootModuleInstance}
	}
	v, ok := p.cg.calls[m.String()]
	if !ok {
		return nil
	}
	return p.resultOf(v).module.insts
}

// expandCall evaluates a module call's count or for_each in every instance
// of the calling module and records the child's instances. In destroy
// mode nothing of the child is evaluated, so the call expands to no
// instances (destroy follows state).
func (p *planner) expandCall(out *result, v *vertex) diags.Diagnostics {
	var insts []addrs.ModuleInstance
	var calls []*plans.ModuleExpansion
	var ds diags.Diagnostics
	outputs := slices.Sorted(maps.Keys(v.call.Module.Outputs))
	for _, parent := range p.moduleInstances(v.module) {
		exp, eds := eval.ExpandCall(p.env.Scope(parent), v.call, false)
		ds = ds.Append(eds)
		if eds.HasErrors() {
			continue
		}
		p.env.Values.DeclareModuleCall(parent, v.name, exp, outputs)
		calls = append(calls, &plans.ModuleExpansion{Parent: parent, Call: v.name, Expansion: exp})
		for _, k := range exp.Keys() {
			insts = append(insts, parent.Child(v.name, k))
		}
	}
	out.module = moduleExpansion{insts: insts, calls: calls}
	return ds
}

// planVariable sets input variable v of child module instance m from its
// call's argument, evaluated in the calling instance with the call's
// count.index or each.key/each.value.
func (p *planner) planVariable(v *vertex, m addrs.ModuleInstance) diags.Diagnostics {
	return p.env.SetModuleVariable(v.call, v.variable, m)
}

// orphanedModuleResources returns the resources of prior state declared
// by configuration resource v in module instances the plan does not have
// (a module call's count went down, or a key went away): they are
// destroyed like resources no longer configured.
func (p *planner) orphanedModuleResources(v *vertex) []addrs.AbsResource {
	cr := v.resource.Addr().InModule(v.module)
	if v.module.IsRoot() {
		return nil
	}
	live := map[string]bool{}
	for _, m := range p.moduleInstances(v.module) {
		live[m.String()] = true
	}
	var out []addrs.AbsResource
	for _, rs := range p.stateByConfig[cr.UniqueKey()] {
		if !live[rs.Addr.Module.String()] && p.targets.plansInstance(rs.Addr.Instance(addrs.NoKey)) {
			out = append(out, rs.Addr)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Less(out[j]) })
	return out
}
