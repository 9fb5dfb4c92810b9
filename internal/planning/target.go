package planning

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/instances"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/zclconf/go-cty/cty"
)

// resourceTarget is what planning the instances of one resource needs: its
// address, configuration (nil for a resource only state has), provider and
// schema, and its expansion (nil until known).
type resourceTarget struct {
	addr     addrs.AbsResource
	config   *configs.Resource
	pAddr    addrs.AbsProviderConfig
	provider providers.Interface
	schema   *configschema.Block
	version  int64
	meta     cty.Value
	// providerConfig is the provider instance's configuration, with its
	// marks (providers.InstanceSet.Config).
	providerConfig cty.Value
	// planDestroy: the provider wants PlanResourceChange for deletes.
	planDestroy bool
	exp         *instances.Expansion
	// router is provider when a ResourceProvider hook gave one that
	// serves some instances apart (providers.InstanceRouter); else nil.
	router providers.InstanceRouter
}

// resourceTarget finds the provider instance and schema of a resource.
func (p *planner) resourceTarget(addr addrs.AbsResource, r *configs.Resource, pAddr addrs.AbsProviderConfig) (*resourceTarget, diags.Diagnostics) {
	rt := &resourceTarget{addr: addr, config: r, pAddr: pAddr}
	rt.schema, rt.version = p.schemas.ResourceTypeSchema(pAddr.Provider, addr.Resource.Mode, addr.Resource.Type)
	if rt.schema == nil {
		return nil, diags.Diagnostics{diags.Errorf("Unknown resource type in state",
			"The state has %s, but provider %s has no resource type %q, so it cannot be planned.", addr, pAddr.Provider.ForDisplay(), addr.Resource.Type)}
	}
	provider, err := p.set.Get(pAddr)
	if err != nil {
		return nil, diags.Diagnostics{diags.Errorf("Provider configuration not available", "%s: %s.", addr, err)}
	}
	rt.provider = provider
	if p.opts.ResourceProvider != nil {
		rt.provider = p.opts.ResourceProvider(addr, pAddr, provider)
		rt.router, _ = rt.provider.(providers.InstanceRouter)
	}
	rt.providerConfig = p.set.Config(pAddr)
	if ps := p.schemas[pAddr.Provider]; ps != nil {
		rt.planDestroy = ps.PlanDestroy
	}
	rt.meta = p.metas.For(addr.Module.Module(), pAddr.Provider)
	return rt, nil
}

// target returns the lifecycle target of one object of the resource.
func (rt *resourceTarget) target(key addrs.InstanceKey, dk addrs.DeposedKey) *lifecycle.Target {
	t := &lifecycle.Target{
		Addr: rt.addr.Instance(key).Object(dk), Provider: rt.provider, ProviderAddr: rt.pAddr.Provider,
		Schema: rt.schema, SchemaVersion: rt.version, ProviderMeta: rt.meta, ProviderConfig: rt.providerConfig,
	}
	if rt.config != nil {
		t.Body, t.DeclRange = rt.config.Config, rt.config.DeclRange
	}
	return t
}

// route gives t the provider of its instance when a hook routes single
// instances (rt.router). Apart from target, so target stays small
// enough to inline (its Target then stays off the heap), and taking t
// without keeping it, so t does not escape.
func (rt *resourceTarget) route(t *lifecycle.Target, key addrs.InstanceKey) {
	if rt.router != nil {
		t.Provider = rt.router.ForInstance(key)
	}
}
