package planning

import (
	"context"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/namedvals"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"golang.org/x/sync/errgroup"
)

// planManagedResource expands a resource block and plans each of its
// instances, plus the deletion of instances (and deposed objects) the
// expansion no longer includes.
func (p *planner) planManagedResource(ctx context.Context, r *configs.Resource, deps []addrs.AbsResource) diags.Diagnostics {
	rt, ds := p.expandResource(r)
	if ds.HasErrors() {
		return ds
	}
	addr, schema, version, exp, provider := rt.addr, rt.schema, rt.version, rt.exp, rt.provider
	prior := p.impliedMove(p.opts.PrevState.Resource(addr), exp, r.ProviderConfigAddr())
	keys := exp.Keys()
	results := make([]diags.Diagnostics, len(keys))
	planOne := func(i int) {
		key := keys[i]
		t := &target{addr: addr.Instance(key), pAddr: r.ProviderConfigAddr(), provider: provider, schema: schema, version: version}
		var is *states.ResourceInstance
		if prior != nil {
			is = prior.Instances[key]
		}
		results[i] = p.planManagedInstance(ctx, r, t, exp, is, deps)
	}
	if len(keys) == 1 {
		// Most resources have one instance; the walk already runs
		// resources in parallel, so no goroutine is needed.
		planOne(0)
	} else {
		var eg errgroup.Group
		eg.SetLimit(p.opts.Parallelism)
		for i := range keys {
			eg.Go(func() error { planOne(i); return nil })
		}
		_ = eg.Wait()
	}
	for _, rds := range results {
		ds = ds.Append(rds)
	}
	if prior != nil {
		ds = ds.Append(p.planOrphanInstances(ctx, r, prior, exp, provider, schema, version))
	}
	return ds
}

// planOrphanInstances plans the deletion of instances whose keys the
// expansion no longer has, and of every deposed object.
func (p *planner) planOrphanInstances(ctx context.Context, r *configs.Resource, prior *states.Resource, exp *namedvals.Expansion, provider providers.Interface, schema *configschema.Block, version int64) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, key := range prior.SortedInstanceKeys() {
		is := prior.Instances[key]
		t := &target{addr: prior.Addr.Instance(key), pAddr: r.ProviderConfigAddr(), provider: provider, schema: schema, version: version}
		if is.Current != nil && !exp.Has(key) {
			ds = ds.Append(checkPreventDestroy(r, &plans.ResourceInstanceChange{Addr: t.addr, Action: plans.Delete}))
			ds = ds.Append(p.planDelete(ctx, t, is.Current, orphanReason(exp, key)))
		}
		for _, dk := range sortedDeposed(is) {
			dt := *t
			dt.deposed = dk
			ds = ds.Append(p.planDelete(ctx, &dt, is.Deposed[dk], plans.ReasonNone))
		}
	}
	return ds
}

// orphanReason explains why an instance key is no longer wanted.
func orphanReason(exp *namedvals.Expansion, key addrs.InstanceKey) plans.ActionReason {
	switch key.(type) {
	case addrs.IntKey:
		if exp.Mode == namedvals.ExpandCount {
			return plans.ReasonDeleteBecauseCountIndex
		}
	case addrs.StringKey:
		if exp.Mode == namedvals.ExpandForEach {
			return plans.ReasonDeleteBecauseEachKey
		}
	}
	return plans.ReasonDeleteBecauseWrongRepetition
}

func sortedDeposed(is *states.ResourceInstance) []addrs.DeposedKey {
	keys := make([]addrs.DeposedKey, 0, len(is.Deposed))
	for k := range is.Deposed {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

// impliedMove follows Terraform's implied moves between a resource without
// count and one with it: adding count moves the single instance to index
// 0, removing count moves index 0 back, so neither change replaces the
// object. It returns the prior resource as seen after the move and records
// the move in the plan's prior state.
func (p *planner) impliedMove(prior *states.Resource, exp *namedvals.Expansion, pAddr addrs.AbsProviderConfig) *states.Resource {
	if prior == nil {
		return nil
	}
	var from, to addrs.InstanceKey
	switch {
	case exp.Mode == namedvals.ExpandCount && prior.Instances[addrs.NoKey] != nil && prior.Instances[addrs.IntKey(0)] == nil:
		from, to = addrs.NoKey, addrs.IntKey(0)
	case exp.Mode == namedvals.ExpandSingle && prior.Instances[addrs.IntKey(0)] != nil && prior.Instances[addrs.NoKey] == nil:
		from, to = addrs.IntKey(0), addrs.NoKey
	default:
		return prior
	}
	moved := &states.Resource{Addr: prior.Addr, ProviderConfig: prior.ProviderConfig, Instances: make(map[addrs.InstanceKey]*states.ResourceInstance, len(prior.Instances))}
	for k, is := range prior.Instances {
		moved.Instances[k] = is
	}
	is := moved.Instances[from]
	delete(moved.Instances, from)
	moved.Instances[to] = is
	p.mu.Lock()
	p.refreshed.SetResourceInstanceCurrent(prior.Addr.Instance(from), nil, pAddr)
	for dk := range is.Deposed {
		p.refreshed.SetResourceInstanceDeposed(prior.Addr.Instance(from), dk, nil, pAddr)
		p.refreshed.SetResourceInstanceDeposed(prior.Addr.Instance(to), dk, is.Deposed[dk], prior.ProviderConfig)
	}
	if is.Current != nil {
		p.refreshed.SetResourceInstanceCurrent(prior.Addr.Instance(to), is.Current, prior.ProviderConfig)
	}
	p.mu.Unlock()
	return moved
}

// resourceTarget is what planning a resource block's instances needs.
type resourceTarget struct {
	addr     addrs.AbsResource
	schema   *configschema.Block
	version  int64
	exp      *namedvals.Expansion
	provider providers.Interface
}

// expandResource evaluates a resource's count or for_each, publishes the
// expansion (unknown when it failed, so dependents see unknowns rather
// than errors of their own) and finds its provider.
func (p *planner) expandResource(r *configs.Resource) (*resourceTarget, diags.Diagnostics) {
	rt := &resourceTarget{addr: r.Addr().Absolute(addrs.RootModuleInstance)}
	rt.schema, rt.version = p.schemas.ResourceTypeSchema(r.Provider, r.Mode, r.Type)
	exp, ds := eval.Expand(p.env.Scope(), r, false)
	if ds.HasErrors() {
		p.env.Values.DeclareResource(r.Addr(), &namedvals.Expansion{Mode: namedvals.ExpandUnknown}, rt.schema.ImpliedType())
		return nil, ds
	}
	rt.exp = exp
	p.env.Values.DeclareResource(r.Addr(), exp, rt.schema.ImpliedType())
	provider, err := p.providers.Get(r.ProviderConfigAddr())
	if err != nil {
		return nil, ds.Append(diags.Errorf("Provider configuration not available", "%s: %s.", rt.addr, err))
	}
	rt.provider = provider
	return rt, ds
}
