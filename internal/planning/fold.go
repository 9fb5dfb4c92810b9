package planning

import (
	"sort"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/plans"
)

// fold gathers every vertex's result into the plan being built and returns
// their diagnostics. It runs on one goroutine once the walk is over, and
// takes the results in vertex order, so the plan and the order of its
// diagnostics never depend on which vertex finished first.
func (p *planner) fold() diags.Diagnostics {
	p.presize()
	var ds diags.Diagnostics
	for i := range p.done {
		r := &p.done[i]
		p.changes = append(p.changes, r.changes...)
		p.expansions = append(p.expansions, r.expansions...)
		p.moduleCalls = append(p.moduleCalls, r.module.calls...)
		p.outputs = append(p.outputs, r.outputs...)
		p.checks = append(p.checks, r.checks...)
		if len(r.deferredValidations) > 0 {
			if p.deferredValidations == nil {
				p.deferredValidations = map[int][]addrs.ModuleInstance{}
			}
			p.deferredValidations[i] = r.deferredValidations
		}
		p.foldPrior(r)
		ds = ds.Append(r.diags)
	}
	sortChecks(p.checks)
	return ds
}

// presize sizes the plan's lists once: a plan of 10,000 resources has
// 10,000 results to gather.
func (p *planner) presize() {
	var changes, expansions int
	for i := range p.done {
		changes += len(p.done[i].changes)
		expansions += len(p.done[i].expansions)
	}
	p.changes = make([]*plans.ResourceInstanceChange, 0, changes)
	p.expansions = make([]*plans.ResourceExpansion, 0, expansions)
}

// foldPrior records in the plan's prior state what one vertex found: the
// objects it read, the data resources it dropped, the root output values,
// and then the dependencies of objects it left alone (which may be
// objects it has just read).
func (p *planner) foldPrior(r *result) {
	for _, o := range r.objects {
		p.refreshed.SetObject(o.addr, o.src, o.provider)
	}
	for _, addr := range r.droppedData {
		p.refreshed.RemoveResource(addr)
	}
	for _, o := range r.outputValues {
		if o.value == nil {
			delete(p.refreshed.Outputs, o.name)
			continue
		}
		p.refreshed.Outputs[o.name] = o.value
	}
	for _, d := range r.dependencies {
		p.setPriorDependencies(d.addr, d.deps)
	}
}

// setPriorDependencies records, in the prior state the plan carries, the
// dependencies an unchanged object has now: Terraform updates them even
// when the object is not changed, so applying the plan stores them.
func (p *planner) setPriorDependencies(addr addrs.AbsResourceInstanceObject, deps []addrs.AbsResource) {
	is := p.refreshed.ResourceInstance(addr.ResourceInstance)
	if is == nil || is.Current == nil || sameResources(is.Current.Dependencies, deps) {
		return
	}
	cp := *is.Current
	cp.Dependencies = deps
	is.Current = &cp
}

func sameResources(a, b []addrs.AbsResource) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

// sortChecks orders check results by check block, then module instance:
// a deterministic plan, in which the instances of one block are adjacent
// (as the JSON plan groups them).
func sortChecks(checks []*plans.CheckResult) {
	sort.Slice(checks, func(i, j int) bool {
		ci, cj := checks[i].Addr.ConfigString(), checks[j].Addr.ConfigString()
		if ci != cj {
			return ci < cj
		}
		return checks[i].Addr.String() < checks[j].Addr.String()
	})
}
