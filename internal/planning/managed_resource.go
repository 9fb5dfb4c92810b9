package planning

import (
	"context"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/instances"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/states"
	"golang.org/x/sync/errgroup"
)

// planManagedResource expands a resource block in one module instance and
// plans each of its instances, plus the deletion of instances (and deposed
// objects) the expansion no longer includes.
func (p *planner) planManagedResource(ctx context.Context, out *result, r *configs.Resource, addr addrs.AbsResource, deps []addrs.AbsResource) diags.Diagnostics {
	rt, ds := p.expandResource(out, r, addr)
	if ds.HasErrors() {
		return ds
	}
	ids := p.resolveResourceImports(addr)
	if ds = ds.Append(ids); ids.HasErrors() {
		return ds
	}
	prior := p.opts.PrevState.Resource(addr)
	keys := rt.exp.Keys()
	ds = ds.Append(p.forEachInstance(len(keys), &out.records, func(i int, out *records) diags.Diagnostics {
		if !p.targets.plansInstance(addr.Instance(keys[i])) {
			return nil
		}
		var is *states.ResourceInstance
		if prior != nil {
			is = prior.Instances[keys[i]]
		}
		return p.planManagedInstance(ctx, out, rt, keys[i], is, deps)
	}))
	if prior != nil {
		ds = ds.Append(p.planOrphanInstances(ctx, &out.records, rt, prior))
	}
	if p.refreshOnly() {
		p.pinStateShaped(rt, prior)
	}
	return ds
}

// forEachInstance runs plan(i, part) for every instance index of a
// resource, up to the run's parallelism at once, each instance recording
// into a part of its own, and then merges the parts into out and their
// diagnostics into what it returns, in index order: the vertex's result
// does not depend on which instance finished first. Most resources have
// one instance; the walk already plans resources in parallel, so that one
// is planned inline, straight into out.
func (p *planner) forEachInstance(n int, out *records, plan func(i int, part *records) diags.Diagnostics) diags.Diagnostics {
	if n == 1 {
		return plan(0, out)
	}
	parts := make([]records, n)
	partDiags := make([]diags.Diagnostics, n)
	var eg errgroup.Group
	eg.SetLimit(p.opts.Parallelism)
	for i := range n {
		eg.Go(func() error {
			partDiags[i] = plan(i, &parts[i])
			return nil
		})
	}
	_ = eg.Wait()
	var ds diags.Diagnostics
	for i := range parts {
		out.merge(&parts[i])
		ds = ds.Append(partDiags[i])
	}
	return ds
}

// planOrphanInstances plans the deletion of instances whose keys the
// expansion no longer has, and of every deposed object.
func (p *planner) planOrphanInstances(ctx context.Context, out *records, rt *resourceTarget, prior *states.Resource) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, key := range prior.SortedInstanceKeys() {
		if !p.targets.plansInstance(rt.addr.Instance(key)) {
			continue
		}
		is := prior.Instances[key]
		if is.Current == nil && len(is.Deposed) == 0 || is.Current != nil && rt.exp.Has(key) && len(is.Deposed) == 0 {
			continue
		}
		if rds := p.resolveInstanceProvider(rt, key, firstObject(is)); rds.HasErrors() {
			ds = ds.Append(rds)
			continue
		}
		krt := rt.forKey(key)
		if is.Current != nil && !rt.exp.Has(key) {
			ds = ds.Append(p.checkPreventDestroy(rt.config, rt.addr.Instance(key), plans.Delete))
			t := krt.target(key, addrs.NotDeposed)
			krt.route(t, key)
			ds = ds.Append(p.planDelete(ctx, out, t, rt.providerAddr(key), rt.planDestroy, is.Current, orphanReason(rt.exp, key)))
		}
		for _, dk := range is.SortedDeposedKeys() {
			t := krt.target(key, dk)
			krt.route(t, key)
			ds = ds.Append(p.planDelete(ctx, out, t, rt.providerAddr(key), rt.planDestroy, is.Deposed[dk], plans.ReasonNone))
		}
	}
	return ds
}

// orphanReason explains why an instance key is no longer wanted.
func orphanReason(exp *instances.Expansion, key addrs.InstanceKey) plans.ActionReason {
	if exp.Mode() == instances.Disabled && key == addrs.NoKey {
		return plans.ReasonDeleteBecauseEnabledFalse
	}
	switch key.(type) {
	case addrs.IntKey:
		if exp.Mode() == instances.Count {
			return plans.ReasonDeleteBecauseCountIndex
		}
	case addrs.StringKey:
		if exp.Mode() == instances.ForEach {
			return plans.ReasonDeleteBecauseEachKey
		}
	}
	return plans.ReasonDeleteBecauseWrongRepetition
}

// expandResource evaluates a resource's count or for_each in its module
// instance, publishes and records the expansion (unknown when it failed,
// so dependents see unknowns rather than errors of their own) and finds
// its provider.
func (p *planner) expandResource(out *result, r *configs.Resource, addr addrs.AbsResource) (*resourceTarget, diags.Diagnostics) {
	schema, _ := p.schemas.ResourceTypeSchema(r.Provider, r.Mode, r.Type)
	exp, ds := eval.Expand(p.env.Scope(addr.Module), r, false)
	if ds.HasErrors() {
		p.env.Values.DeclareResource(addr, instances.UnknownExpansion(), schema.ImpliedType())
		return nil, ds
	}
	p.env.Values.DeclareResource(addr, exp, schema.ImpliedType())
	out.expansions = append(out.expansions, &plans.ResourceExpansion{Addr: addr, Expansion: exp})
	rt, rds := p.resourceTarget(addr, r, r.ProviderConfigAddr())
	if rds.HasErrors() {
		return nil, ds.Append(rds)
	}
	rt.exp = exp
	return rt, ds
}
