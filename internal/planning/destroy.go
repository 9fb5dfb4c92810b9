package planning

import (
	"context"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// planDestroyResource plans the deletion of every object of a resource in
// prior state: a resource removed from configuration, or any resource in
// destroy mode. Data resources are only forgotten.
func (p *planner) planDestroyResource(ctx context.Context, out *result, addr addrs.AbsResource, pAddr addrs.AbsProviderConfig) diags.Diagnostics {
	reason := plans.ReasonDeleteBecauseNoResourceConfig
	if p.opts.Mode == plans.DestroyMode {
		reason = plans.ReasonNone
	}
	return p.planDestroyResourceBecause(ctx, out, addr, pAddr, reason)
}

// planDestroyResourceBecause is planDestroyResource with the reason its
// current objects are deleted.
func (p *planner) planDestroyResourceBecause(ctx context.Context, out *result, addr addrs.AbsResource, pAddr addrs.AbsProviderConfig, reason plans.ActionReason) diags.Diagnostics {
	prior := p.opts.PrevState.Resource(addr)
	if prior == nil {
		return nil
	}
	if addr.Resource.Mode == addrs.DataResourceMode {
		out.droppedData = append(out.droppedData, addr)
		return nil
	}
	rt, ds := p.resourceTarget(addr, nil, pAddr)
	if ds.HasErrors() {
		return ds
	}
	keys := prior.SortedInstanceKeys()
	if p.opts.Mode == plans.NormalMode && p.moves.forgets(addr) {
		return ds.Append(p.forEachInstance(len(keys), &out.records, func(i int, out *records) diags.Diagnostics {
			return p.planForgetInstance(ctx, out, rt, pAddr, keys[i], prior.Instances[keys[i]])
		}))
	}
	return ds.Append(p.forEachInstance(len(keys), &out.records, func(i int, out *records) diags.Diagnostics {
		return p.planDeleteInstance(ctx, out, rt, pAddr, keys[i], prior.Instances[keys[i]], reason)
	}))
}

// planDeleteInstance plans the deletion of every object of one instance
// in prior state: the current one for reason, deposed ones for none.
func (p *planner) planDeleteInstance(ctx context.Context, out *records, rt *resourceTarget, pAddr addrs.AbsProviderConfig, key addrs.InstanceKey, is *states.ResourceInstance, reason plans.ActionReason) diags.Diagnostics {
	addr := rt.addr.Instance(key)
	if !p.targets.plansInstance(addr) {
		return nil
	}
	if ds := p.resolveInstanceProvider(rt, key, firstObject(is)); ds.HasErrors() {
		return ds
	}
	rt = rt.forKey(key)
	pAddr = rt.providerAddr(key)
	var ds diags.Diagnostics
	if is.Current != nil {
		t := rt.target(key, addrs.NotDeposed)
		rt.route(t, key)
		ds = ds.Append(p.planDelete(ctx, out, t, pAddr, rt.planDestroy, is.Current, p.moves.orphanReason(addr, reason)))
	}
	for _, dk := range is.SortedDeposedKeys() {
		t := rt.target(key, dk)
		rt.route(t, key)
		ds = ds.Append(p.planDelete(ctx, out, t, pAddr, rt.planDestroy, is.Deposed[dk], plans.ReasonNone))
	}
	return ds
}

// planDelete plans the deletion of an object (an orphaned instance, a
// deposed object, anything in destroy mode), refreshing it first so a
// vanished object is just forgotten. A provider that declared the
// PlanDestroy capability plans the delete too, and its planned private
// data goes to the delete.
func (p *planner) planDelete(ctx context.Context, out *records, t *lifecycle.Target, pAddr addrs.AbsProviderConfig, planDestroy bool, src *states.ObjectSrc, reason plans.ActionReason) diags.Diagnostics {
	obj, ds := p.readPrior(ctx, out, t, pAddr, src)
	if ds.HasErrors() || obj == nil || p.refreshOnly() {
		// A refresh-only plan records that the object is gone, if it is,
		// and otherwise leaves it alone.
		return ds
	}
	private := obj.Private
	if planDestroy {
		planned, pds := lifecycle.PlanDestroy(ctx, t, obj.Value, obj.Private)
		ds = ds.Append(pds)
		if pds.HasErrors() {
			return ds
		}
		private = planned
	}
	p.record(out, &plans.ResourceInstanceChange{
		Addr: t.Addr.ResourceInstance, DeposedKey: t.Addr.DeposedKey, Provider: pAddr, Action: plans.Delete, ActionReason: reason,
		Before: obj.Value, After: cty.NullVal(t.Schema.ImpliedType()), Private: private, SchemaVersion: t.SchemaVersion,
	})
	return ds
}
