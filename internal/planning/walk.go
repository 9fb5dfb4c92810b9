package planning

import (
	"context"
	"errors"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/graph"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/zclconf/go-cty/cty"
)

// walk visits every vertex of the configuration graph in dependency order
// and folds their results into the plan. Each vertex reports its own
// diagnostics; a failed vertex skips its dependents but not independent
// branches, so one run reports every independent problem.
func (p *planner) walk(ctx context.Context) diags.Diagnostics {
	res := graph.WalkResults(ctx, p.cg.g, p.opts.Parallelism, p.done, p.visitVertex)
	ds := p.fold()
	for _, err := range res.Errors {
		if !errors.Is(err, errVertexFailed) {
			ds = ds.Append(diags.Errorf("Internal error during planning", "%s", err))
		}
	}
	if err := ctx.Err(); err != nil {
		ds = ds.Append(diags.Errorf("Planning interrupted", "The plan was cancelled: %s.", err))
	}
	return ds
}

// visitVertex is the walk's visit of vertex i: what planning it produced,
// and errVertexFailed when that has errors, which skips its dependents.
func (p *planner) visitVertex(ctx context.Context, i int) (result, error) {
	var out result
	if !p.targets.visits(i) {
		return out, nil
	}
	out.diags = p.visit(ctx, &out, p.cg.vertices[i])
	if p.watched[i] {
		out.index = newChangeIndex(out.changes)
	}
	if out.diags.HasErrors() {
		return out, errVertexFailed
	}
	return out, nil
}

var errVertexFailed = errors.New("vertex failed")

// visit plans one configuration object in every instance of its module,
// into out.
func (p *planner) visit(ctx context.Context, out *result, v *vertex) diags.Diagnostics {
	if v.kind == vProvider {
		return eval.ConfigureProvider(p.set, v.provider, v.pcfg, p.schemas.ProviderConfigSchema(v.provider.Provider), p.env)
	}
	if v.kind == vOrphan {
		return p.planDestroyResource(ctx, out, v.orphan.Addr, v.orphan.ProviderConfig)
	}
	if v.kind == vCall {
		return p.expandCall(out, v)
	}
	if v.kind == vResource && p.opts.Mode == plans.DestroyMode && !v.module.IsRoot() && v.resource.Mode != addrs.EphemeralResourceMode {
		return p.planDestroyModuleResource(ctx, out, v)
	}
	var ds diags.Diagnostics
	for _, m := range p.moduleInstances(v.module) {
		ds = ds.Append(p.visitIn(ctx, out, v, m))
	}
	if v.kind == vResource && !ds.HasErrors() {
		for _, addr := range p.orphanedModuleResources(v) {
			rs := p.opts.PrevState.Resource(addr)
			ds = ds.Append(p.planDestroyResourceBecause(ctx, out, addr, rs.ProviderConfig, plans.ReasonDeleteBecauseNoModule))
		}
	}
	return ds
}

// planDestroyModuleResource plans, in destroy mode, the deletion of every
// object a resource of a child module has in state, in whatever module
// instances state has them.
func (p *planner) planDestroyModuleResource(ctx context.Context, out *result, v *vertex) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, rs := range p.stateByConfig[v.resource.Addr().InModule(v.module).UniqueKey()] {
		ds = ds.Append(p.planDestroyConfigured(ctx, out, v.resource, rs.Addr))
	}
	return ds
}

func (p *planner) visitIn(ctx context.Context, out *result, v *vertex, m addrs.ModuleInstance) diags.Diagnostics {
	switch v.kind {
	case vLocal:
		addr := addrs.LocalValue{Name: v.name}.Absolute(m)
		val, ds := p.env.Scope(m).EvalExpr(v.local.Expr, cty.DynamicPseudoType)
		p.env.Values.SetLocal(addr, val)
		return ds
	case vOutput:
		if !m.IsRoot() {
			return p.env.EvalChildOutput(v.output, m)
		}
		return p.planOutput(out, v.output, m)
	case vVariable:
		return p.planVariable(v, m)
	case vCheck:
		return p.planCheck(out, v.check, m)
	case vValidation:
		if p.opts.Mode == plans.DestroyMode {
			return nil // what the rules name is not planned when destroying
		}
		ds, deferred := p.env.ValidateVariableCrossRefs(v.variable, m)
		if deferred {
			out.deferredValidations = append(out.deferredValidations, m)
		}
		return ds
	case vResource:
		addr := v.resource.Addr().Absolute(m)
		switch {
		case v.resource.Mode == addrs.EphemeralResourceMode:
			// Opened in every mode: a provider configuration planning a
			// destroy may need it too. Nothing of it is in state.
			return p.planEphemeralResource(ctx, out, v.resource, addr)
		case p.opts.Mode == plans.DestroyMode:
			return p.planDestroyConfigured(ctx, out, v.resource, addr)
		case v.resource.Mode == addrs.DataResourceMode:
			return p.planDataResource(ctx, out, v.resource, addr, p.cg.absDeps(v, m))
		default:
			return p.planManagedResource(ctx, out, v.resource, addr, p.cg.absDeps(v, m))
		}
	}
	return diags.Diagnostics{diags.Errorf("Internal error during planning", "unexpected vertex %s", v)}
}

// planDestroyConfigured plans the deletion of a configured resource in
// destroy mode, refusing it for prevent_destroy.
func (p *planner) planDestroyConfigured(ctx context.Context, out *result, r *configs.Resource, addr addrs.AbsResource) diags.Diagnostics {
	if rs := p.opts.PrevState.Resource(addr); rs != nil && r.Managed != nil && (r.Managed.PreventDestroy || r.Managed.PreventDestroyExpr != nil) {
		for _, k := range rs.SortedInstanceKeys() {
			if ds := p.checkPreventDestroy(r, addr.Instance(k), plans.Delete); ds.HasErrors() {
				return ds
			}
		}
	}
	return p.planDestroyResource(ctx, out, addr, r.ProviderConfigAddr())
}
