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
func (p *planner) planManagedResource(ctx context.Context, r *configs.Resource, addr addrs.AbsResource, deps []addrs.AbsResource) diags.Diagnostics {
	rt, ds := p.expandResource(r, addr)
	if ds.HasErrors() {
		return ds
	}
	prior := p.opts.PrevState.Resource(addr)
	keys := rt.exp.Keys()
	results := make([]diags.Diagnostics, len(keys))
	planOne := func(i int) {
		if !p.targets.plansInstance(addr.Instance(keys[i])) {
			return
		}
		var is *states.ResourceInstance
		if prior != nil {
			is = prior.Instances[keys[i]]
		}
		results[i] = p.planManagedInstance(ctx, rt, keys[i], is, deps)
	}
	p.forEachInstance(len(keys), planOne)
	for _, rds := range results {
		ds = ds.Append(rds)
	}
	if prior != nil {
		ds = ds.Append(p.planOrphanInstances(ctx, rt, prior))
	}
	return ds
}

// forEachInstance runs plan(i) for every instance index of a resource, up
// to the run's parallelism at once. Most resources have one instance; the
// walk already plans resources in parallel, so that one is planned inline.
func (p *planner) forEachInstance(n int, plan func(i int)) {
	if n == 1 {
		plan(0)
		return
	}
	var eg errgroup.Group
	eg.SetLimit(p.opts.Parallelism)
	for i := 0; i < n; i++ {
		eg.Go(func() error { plan(i); return nil })
	}
	_ = eg.Wait()
}

// planOrphanInstances plans the deletion of instances whose keys the
// expansion no longer has, and of every deposed object.
func (p *planner) planOrphanInstances(ctx context.Context, rt *resourceTarget, prior *states.Resource) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, key := range prior.SortedInstanceKeys() {
		if !p.targets.plansInstance(rt.addr.Instance(key)) {
			continue
		}
		is := prior.Instances[key]
		if is.Current != nil && !rt.exp.Has(key) {
			ds = ds.Append(checkPreventDestroy(rt.config, rt.addr.Instance(key), plans.Delete))
			ds = ds.Append(p.planDelete(ctx, rt.target(key, addrs.NotDeposed), rt.pAddr, rt.planDestroy, is.Current, orphanReason(rt.exp, key)))
		}
		for _, dk := range is.SortedDeposedKeys() {
			ds = ds.Append(p.planDelete(ctx, rt.target(key, dk), rt.pAddr, rt.planDestroy, is.Deposed[dk], plans.ReasonNone))
		}
	}
	return ds
}

// orphanReason explains why an instance key is no longer wanted.
func orphanReason(exp *instances.Expansion, key addrs.InstanceKey) plans.ActionReason {
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
func (p *planner) expandResource(r *configs.Resource, addr addrs.AbsResource) (*resourceTarget, diags.Diagnostics) {
	schema, _ := p.schemas.ResourceTypeSchema(r.Provider, r.Mode, r.Type)
	exp, ds := eval.Expand(p.env.Scope(addr.Module), r, false)
	if ds.HasErrors() {
		p.env.Values.DeclareResource(addr, instances.UnknownExpansion(), schema.ImpliedType())
		return nil, ds
	}
	p.env.Values.DeclareResource(addr, exp, schema.ImpliedType())
	p.recordExpansion(&plans.ResourceExpansion{Addr: addr, Expansion: exp})
	rt, rds := p.resourceTarget(addr, r, r.ProviderConfigAddr())
	if rds.HasErrors() {
		return nil, ds.Append(rds)
	}
	rt.exp = exp
	return rt, ds
}
