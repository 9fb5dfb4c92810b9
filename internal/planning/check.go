package planning

import (
	"context"
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// planCheck evaluates check c's assertions in module instance m, once
// everything they refer to is planned. A check whose scoped data source
// could not be read fails with that problem alone, as in Terraform: its
// assertions would only be about an unknown value.
func (p *planner) planCheck(out *result, c *configs.Check, m addrs.ModuleInstance) diags.Diagnostics {
	if p.opts.Mode == plans.DestroyMode {
		return nil
	}
	res := &plans.CheckResult{Addr: addrs.Check{Name: c.Name}.Absolute(m)}
	out.checks = append(out.checks, res)
	if problems := p.scopedDataProblems(c, res.Addr); problems != nil {
		res.Status, res.Problems = plans.CheckFail, problems
		return nil
	}
	var ds diags.Diagnostics
	res.Status, res.Problems, ds = p.env.CheckAssertions(c, m, true)
	return ds
}

// scopedDataProblems returns why check c's scoped data source could not
// be read in c's module instance, from the result of the data source's
// vertex (the check's vertex depends on it); nil when it was read, or c
// has none.
func (p *planner) scopedDataProblems(c *configs.Check, addr addrs.AbsCheck) []string {
	if c.DataResource == nil {
		return nil
	}
	v, ok := p.cg.resourceVertex(c.DataResource.Addr().InModule(addr.Module.Module()))
	if !ok {
		return nil
	}
	k := addr.UniqueKey()
	for _, dp := range p.resultOf(v).dataProblems {
		if dp.check.UniqueKey() == k {
			return dp.problems
		}
	}
	return nil
}

// planScopedDataInstance plans a check block's data source. Terraform
// 1.5.7 reads it now when it can, so the assertions see a value, and
// always reads it again during apply, so they are decided against the
// world apply leaves ("config will be reloaded to verify a check block").
// When its configuration is unknown or depends on pending changes it is
// read only during apply, for those reasons. A failed read is a warning.
func (p *planner) planScopedDataInstance(ctx context.Context, out *result, rt *resourceTarget, t *lifecycle.Target, pending bool, deps []addrs.AbsResource) diags.Diagnostics {
	addr := t.Addr.ResourceInstance
	config, ds := p.instanceConfig(ctx, rt, t)
	if ds.HasErrors() {
		p.env.Values.SetInstance(addr, cty.UnknownVal(rt.schema.ImpliedType()))
		return ds
	}
	change := &plans.ResourceInstanceChange{
		Addr: addr, Provider: rt.providerAddr(addr.Resource.Key), Action: plans.Read, ActionReason: plans.ReasonReadBecauseCheckNested,
		Before: cty.NullVal(rt.schema.ImpliedType()), After: lifecycle.PlannedData(rt.schema, config),
		SchemaVersion: rt.version, Dependencies: deps,
	}
	switch {
	case !marks.Strip(config).IsWhollyKnown():
		change.ActionReason = plans.ReasonReadBecauseConfigUnknown
	case pending:
		change.ActionReason = plans.ReasonReadBecauseDependencyPending
	default:
		val, rds := p.readData(ctx, t, config)
		if rds.HasErrors() {
			warnings, problems := eval.ScopedDataFailed(rds)
			ds = ds.Append(warnings)
			out.dataProblems = append(out.dataProblems, scopedDataProblems{addrs.Check{Name: rt.config.Check}.Absolute(addr.Module), problems})
			// Terraform keeps the failed read's object, its computed
			// attributes null, in state.
			ds = ds.Append(p.refreshScopedData(out, rt, t, failedReadValue(change.After), deps))
		} else {
			ds = ds.Append(rds)
			change.After = val
			ds = ds.Append(p.refreshScopedData(out, rt, t, val, deps))
		}
	}
	p.env.Values.SetInstance(addr, change.After)
	if !p.refreshOnly() {
		p.record(&out.records, change)
	}
	return ds
}

// ruleReferences returns the references of the rules' conditions and
// error messages.
func ruleReferences(rules []*configs.CheckRule) ([]*addrs.Reference, diags.Diagnostics) {
	var refs []*addrs.Reference
	var ds diags.Diagnostics
	for _, c := range rules {
		more, mds := lang.ReferencesInExpr(c.Condition)
		refs, ds = append(refs, more...), ds.Append(mds)
		more, mds = lang.ReferencesInExpr(c.ErrorMessage)
		refs, ds = append(refs, more...), ds.Append(mds)
	}
	return refs, ds
}

// connectScopedData makes check vertex i wait for its scoped data source,
// whether or not an assertion refers to it: the check reports the
// source's failure.
func (cg *configGraph) connectScopedData(i int, v *vertex) {
	if r := v.check.DataResource; r != nil {
		if t, ok := cg.resourceVertex(r.Addr().InModule(v.module)); ok {
			cg.g.Connect(i, t)
		}
	}
}

// checkScopedRef reports a reference from vertex v to a check block's
// scoped data source from outside that check: Terraform keeps it private
// to the check's assertions.
func (cg *configGraph) checkScopedRef(v int, cr addrs.ConfigResource, rng hcl.Range) diags.Diagnostics {
	t, ok := cg.resourceVertex(cr)
	if !ok {
		return nil
	}
	scoped := cg.vertices[t].resource.Check
	if scoped == "" || v == t {
		return nil
	}
	if from := cg.vertices[v]; from.kind == vCheck && from.check.Name == scoped {
		return nil
	}
	r := cr.Resource
	return diags.Diagnostics{diags.At(rng, "Reference to scoped resource",
		fmt.Sprintf("The referenced data resource %q %q is not available from this context.", r.Type, r.Name))}
}

// checkIndex indexes plan results by check address.
func checkIndex(results []*plans.CheckResult) map[addrs.UniqueKey]int {
	out := make(map[addrs.UniqueKey]int, len(results))
	for i, r := range results {
		out[r.Addr.UniqueKey()] = i
	}
	return out
}

// addCheckNodes adds a node evaluating check vertex i's assertions in each
// module instance planning checked it in: Terraform checks again after
// apply, when what the assertions refer to has its applied value.
// connectConfigDeps gives the node the vertex's edges, so it runs after
// everything the check refers to, its scoped data source's read included.
func (b *applyGraphBuilder) addCheckNodes(i int, v *vertex, checks map[addrs.UniqueKey]int) {
	for _, m := range b.moduleInstances(v.module) {
		ci, ok := checks[addrs.Check{Name: v.check.Name}.Absolute(m).UniqueKey()]
		if !ok {
			continue
		}
		b.nodeOf[vertexInstance{i, m.String()}] = b.g.Add(plans.Node{Op: plans.OpCheckAssertions, Ref: ci})
	}
}

// orderScopedData makes every check block's data source wait for every
// managed resource, as Terraform 1.5.7 does in plan and apply: a check
// verifies the infrastructure as the run leaves it. The edges only order
// the walk; they are added after computeResourceDeps so state does not
// record them as dependencies. They cannot form a cycle, since nothing
// outside a check may refer to its data source.
func (cg *configGraph) orderScopedData() {
	var managed, scoped []int
	for i, v := range cg.vertices {
		if v.kind != vResource {
			continue
		}
		switch {
		case v.resource.Mode == addrs.ManagedResourceMode:
			managed = append(managed, i)
		case v.resource.Check != "":
			scoped = append(scoped, i)
		}
	}
	for _, s := range scoped {
		for _, m := range managed {
			cg.g.Connect(s, m)
		}
	}
}

// refreshScopedData records what a scoped data source read while planning
// in the refreshed state (the plan's prior state), as Terraform 1.5.7 does
// for any data source it reads; apply reads it again all the same.
func (p *planner) refreshScopedData(out *result, rt *resourceTarget, t *lifecycle.Target, val cty.Value, deps []addrs.AbsResource) diags.Diagnostics {
	src, err := states.EncodeObject(rt.schema, &states.Object{Value: val, Status: states.ObjectReady, Dependencies: deps}, rt.version)
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Failed to record data source result", "%s: %s.", t.Addr, err)}
	}
	out.setPrior(t.Addr, src, rt.providerAddr(t.Addr.ResourceInstance.Resource.Key))
	return nil
}

// failedReadValue is what state holds for a scoped data source whose read
// failed: the configuration, with what only the read would have set null.
func failedReadValue(planned cty.Value) cty.Value {
	u, pvm := planned.UnmarkDeepWithPaths()
	return cty.UnknownAsNull(u).MarkWithPaths(pvm)
}
