package planning

import (
	"maps"
	"slices"
	"sort"
	"sync"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/plans"
)

// moduleExpansions holds the instances of each module path, as the walk
// expands module calls. A call's vertex records its child's instances
// before any vertex of the child runs (they all wait for it), so readers
// always find their module's list complete.
type moduleExpansions struct {
	mu    sync.RWMutex
	insts map[string][]addrs.ModuleInstance // by Module.String()
	// calls records each call's expansion in each calling instance, for
	// the plan (apply publishes them again before evaluating anything).
	calls []*plans.ModuleExpansion
}

func (e *moduleExpansions) get(m addrs.Module) ([]addrs.ModuleInstance, bool) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	insts, ok := e.insts[m.String()]
	return insts, ok
}

func (e *moduleExpansions) set(m addrs.Module, insts []addrs.ModuleInstance, calls []*plans.ModuleExpansion) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.insts == nil {
		e.insts = map[string][]addrs.ModuleInstance{}
	}
	e.insts[m.String()] = insts
	e.calls = append(e.calls, calls...)
}

// moduleInstances returns the instances of module m this plan covers: the
// root's one instance, or those its call expanded to (none when the call
// failed or has not been expanded).
func (p *planner) moduleInstances(m addrs.Module) []addrs.ModuleInstance {
	if m.IsRoot() {
		return []addrs.ModuleInstance{addrs.RootModuleInstance}
	}
	insts, _ := p.modules.get(m)
	return insts
}

// expandCall evaluates a module call's count or for_each in every instance
// of the calling module and records the child's instances. In destroy
// mode nothing of the child is evaluated, so the call expands to no
// instances (destroy follows state).
func (p *planner) expandCall(v *vertex) diags.Diagnostics {
	child := v.module.Child(v.name)
	var insts []addrs.ModuleInstance
	var calls []*plans.ModuleExpansion
	var ds diags.Diagnostics
	outputs := slices.Sorted(maps.Keys(v.call.Module.Outputs))
	for _, parent := range p.moduleInstances(v.module) {
		exp, eds := eval.ExpandRepetition(p.env.Scope(parent), v.call.Count, v.call.ForEach, false)
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
	p.modules.set(child, insts, calls)
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
