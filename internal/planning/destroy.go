package planning

import (
	"context"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/plans"
)

// planDestroyResource plans the deletion of every object of a resource in
// prior state: a resource removed from configuration, or any resource in
// destroy mode. Data resources are only forgotten.
func (p *planner) planDestroyResource(ctx context.Context, addr addrs.AbsResource, pAddr addrs.AbsProviderConfig) diags.Diagnostics {
	prior := p.opts.PrevState.Resource(addr)
	if prior == nil {
		return nil
	}
	if addr.Resource.Mode == addrs.DataResourceMode {
		p.mu.Lock()
		p.refreshed.RemoveResource(addr)
		p.mu.Unlock()
		return nil
	}
	schema, version := p.schemas.ResourceTypeSchema(pAddr.Provider, addr.Resource.Mode, addr.Resource.Type)
	if schema == nil {
		return diags.Diagnostics{diags.Errorf("Unknown resource type in state",
			"The state has %s, but provider %s has no resource type %q, so it cannot be destroyed.", addr, pAddr.Provider.ForDisplay(), addr.Resource.Type)}
	}
	provider, err := p.providers.Get(pAddr)
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Provider configuration not available", "%s: %s.", addr, err)}
	}
	reason := plans.ReasonDeleteBecauseNoResourceConfig
	if p.opts.Mode == plans.DestroyMode {
		reason = plans.ReasonNone
	}
	var ds diags.Diagnostics
	for _, key := range prior.SortedInstanceKeys() {
		is := prior.Instances[key]
		t := &target{addr: addr.Instance(key), pAddr: pAddr, provider: provider, schema: schema, version: version}
		if is.Current != nil {
			ds = ds.Append(p.planDelete(ctx, t, is.Current, reason))
		}
		for _, dk := range sortedDeposed(is) {
			dt := *t
			dt.deposed = dk
			ds = ds.Append(p.planDelete(ctx, &dt, is.Deposed[dk], plans.ReasonNone))
		}
	}
	return ds
}
