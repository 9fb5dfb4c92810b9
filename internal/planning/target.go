package planning

import (
	"sync"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/instances"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
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

	// keyed holds, when the resource's instances may use instances of a
	// provider configuration with for_each (OpenTofu 1.9), the provider
	// instance of each instance key resolved so far (instanceProviders);
	// nil when every instance uses pAddr.
	keyed *keyedProviders
}

// keyedProviders is the provider instance of each instance key of one
// resource. Instances are planned concurrently, so it is locked.
type keyedProviders struct {
	prior *states.Resource // for objects no configured instance has
	mu    sync.Mutex
	byKey map[addrs.InstanceKey]*instanceProvider
}

// instanceProvider is the provider instance one resource instance uses.
type instanceProvider struct {
	addr     addrs.AbsProviderConfig
	provider providers.Interface
	config   cty.Value
}

// resourceTarget finds the provider instance and schema of a resource.
// When the resource's instances select provider instances by key (a
// provider argument or a module call's providers argument with a key, or
// keys in state), each instance's is found by instanceProvider instead.
func (p *planner) resourceTarget(addr addrs.AbsResource, r *configs.Resource, pAddr addrs.AbsProviderConfig) (*resourceTarget, diags.Diagnostics) {
	rt := &resourceTarget{addr: addr, config: r, pAddr: pAddr}
	rt.schema, rt.version = p.schemas.ResourceTypeSchema(pAddr.Provider, addr.Resource.Mode, addr.Resource.Type)
	if rt.schema == nil {
		return nil, diags.Diagnostics{diags.Errorf("Unknown resource type in state",
			"The state has %s, but provider %s has no resource type %q, so it cannot be planned.", addr, pAddr.Provider.ForDisplay(), addr.Resource.Type)}
	}
	var prior *states.Resource
	if p.priorHasProviderKeys() {
		prior = p.opts.PrevState.Resource(addr)
	}
	provider, err := p.set.Get(pAddr)
	switch {
	case err == nil:
		rt.provider = provider
		if p.opts.ResourceProvider != nil {
			rt.provider = p.opts.ResourceProvider(addr, pAddr, provider)
			rt.router, _ = rt.provider.(providers.InstanceRouter)
		}
		rt.providerConfig = p.set.Config(pAddr)
	case !p.providerHasInstances(pAddr):
		return nil, diags.Diagnostics{diags.Errorf("Provider configuration not available", "%s: %s.", addr, err)}
	}
	if err != nil || (r != nil && r.ProviderKey().Expr != nil) || (prior != nil && prior.HasProviderKeys()) {
		rt.keyed = &keyedProviders{prior: prior, byKey: map[addrs.InstanceKey]*instanceProvider{}}
	}
	if ps := p.schemas[pAddr.Provider]; ps != nil {
		rt.planDestroy = ps.PlanDestroy
	}
	rt.meta = p.metas.For(addr.Module.Module(), pAddr.Provider)
	return rt, nil
}

// priorHasProviderKeys reports whether any object of the prior state uses
// a keyed provider instance: only then must each resource look for its
// own (most plans have none, and 10,000 lookups of a resource address
// are not free).
func (p *planner) priorHasProviderKeys() bool {
	p.priorKeyedOnce.Do(func() {
		if p.opts.PrevState == nil {
			return
		}
		for _, rs := range p.opts.PrevState.Resources {
			if rs.HasProviderKeys() {
				p.priorKeyed = true
				return
			}
		}
	})
	return p.priorKeyed
}

// providerHasInstances reports whether the provider block of pAddr has
// for_each, so that only its keyed instances are configured.
func (p *planner) providerHasInstances(pAddr addrs.AbsProviderConfig) bool {
	mod := p.opts.Config.Descendant(pAddr.Module)
	if mod == nil {
		return false
	}
	pc := mod.ProviderConfigs[configs.ProviderConfigKey(mod.LocalNameForProvider(pAddr.Provider), pAddr.Alias)]
	return pc != nil && pc.ForEach != nil
}

// target returns the lifecycle target of one object of the resource, with
// rt's provider instance: for a resource with keyed provider instances,
// call it on forKey(key). It stays small enough to inline, so the target
// does not escape in the callers that plan 10,000 instances.
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

// providerAddr returns the provider configuration instance of instance
// key, as changes and state record it.
func (rt *resourceTarget) providerAddr(key addrs.InstanceKey) addrs.AbsProviderConfig {
	if rt.keyed != nil {
		if ip := rt.keyed.get(key); ip != nil {
			return ip.addr
		}
	}
	return rt.pAddr
}

// resolved returns the provider instance resolved for key, or nil.
func (rt *resourceTarget) resolved(key addrs.InstanceKey) *instanceProvider {
	if rt.keyed == nil {
		return nil
	}
	return rt.keyed.get(key)
}

func (k *keyedProviders) get(key addrs.InstanceKey) *instanceProvider {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.byKey[key]
}

// forKey returns rt with the provider instance resolved for instance key
// (see resolveInstanceProvider): rt itself when its instances use one
// provider instance.
func (rt *resourceTarget) forKey(key addrs.InstanceKey) *resourceTarget {
	if rt.keyed == nil {
		return rt
	}
	return rt.keyed.target(rt, key)
}

func (k *keyedProviders) target(rt *resourceTarget, key addrs.InstanceKey) *resourceTarget {
	ip := k.get(key)
	if ip == nil {
		return rt
	}
	c := *rt
	c.pAddr, c.provider, c.providerConfig = ip.addr, ip.provider, ip.config
	// The hook (resolveInstanceProvider) may have routed single
	// instances of this provider instance apart ("cairn test"'s
	// override_resource): route goes by the keyed instance's router, not
	// by the one of the configuration's unkeyed provider (nil when that
	// has only keyed instances).
	c.router, _ = ip.provider.(providers.InstanceRouter)
	return &c
}
