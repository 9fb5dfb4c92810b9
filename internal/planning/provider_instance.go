package planning

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/states"
)

// resolveInstanceProvider finds the provider instance that plans the
// objects of instance key of rt, when its instances may use keyed
// provider instances (OpenTofu 1.9's provider for_each). An instance its
// configuration declares uses the key its provider argument (or its module
// call's providers argument) selects; any other object (an orphan, a
// destroy plan's) uses the provider instance state records, as OpenTofu
// falls back to state. A provider instance that is not configured (its key
// was removed from the provider's for_each) is OpenTofu's "Provider
// instance not present".
func (p *planner) resolveInstanceProvider(rt *resourceTarget, key addrs.InstanceKey, dk addrs.DeposedKey) diags.Diagnostics {
	if rt.keyed == nil || rt.resolved(key) != nil {
		return nil
	}
	pAddr := rt.pAddr
	switch {
	case rt.config != nil && (rt.exp == nil || rt.exp.Has(key)) && p.opts.Mode != plans.DestroyMode:
		// No expansion: cairn import, which evaluates no count or
		// for_each, so only a key without each or count works there.
		addr, ds := p.env.ResourceProviderInstance(rt.config, rt.addr.Instance(key), rt.exp)
		if ds.HasErrors() {
			return ds
		}
		pAddr = addr
	case rt.keyed.prior != nil && rt.keyed.prior.Instances[key] != nil:
		pAddr = rt.keyed.prior.InstanceProvider(key)
	}
	provider, err := p.set.Get(pAddr)
	if err != nil {
		return diags.Diagnostics{providerInstanceNotPresent(rt.addr.Instance(key), dk, pAddr)}
	}
	if p.opts.ResourceProvider != nil {
		provider = p.opts.ResourceProvider(rt.addr, pAddr, provider)
	}
	ip := &instanceProvider{addr: pAddr, provider: provider, config: p.set.Config(pAddr)}
	rt.keyed.mu.Lock()
	rt.keyed.byKey[key] = ip
	rt.keyed.mu.Unlock()
	return nil
}

// providerInstanceNotPresent is OpenTofu 1.12.6's error for an object
// whose provider instance is not configured: the key is gone from the
// provider's for_each, or for_each was added to a configuration whose
// objects still use it without a key.
func providerInstanceNotPresent(addr addrs.AbsResourceInstance, dk addrs.DeposedKey, pAddr addrs.AbsProviderConfig) diags.Diagnostic {
	const summary = "Provider instance not present"
	cfg := pAddr.Config()
	switch {
	case dk == addrs.NotDeposed && pAddr.Key != addrs.NoKey:
		return diags.Errorf(summary, "%s", fmt.Sprintf(
			"To work with %s its original provider instance at %s is required, but it has been removed. This occurs when an element is removed from the provider configuration's for_each collection while objects created by that the associated provider instance still exist in the state. Re-add the for_each element to destroy %s, after which you can remove the provider configuration again.\n\n"+
				"This is commonly caused by using the same for_each collection both for a resource (or its containing module) and its associated provider configuration. To successfully remove an instance of a resource it must be possible to remove the corresponding element from the resource's for_each collection while retaining the corresponding element in the provider's for_each collection.",
			addr, pAddr, addr))
	case dk == addrs.NotDeposed:
		return diags.Errorf(summary, "%s", fmt.Sprintf(
			"To work with %s its original provider instance at %s is required, but it has been removed. This suggests that you've added for_each to this provider configuration while there are existing instances of %s that need to be destroyed by the original single-instance provider configuration.\n\n"+
				"To proceed, return to your previous single-instance configuration for %s and ensure that %s has been destroyed or forgotten before using for_each with this provider, or change the resource configuration to still declare an instance with the key %s.",
			addr, pAddr, addr.ContainingResource(), cfg, addr, addrs.KeyString(addr.Resource.Key)))
	case pAddr.Key != addrs.NoKey:
		return diags.Errorf(summary, "%s", fmt.Sprintf(
			"To work with %s's deposed object %s its original provider instance at %s is required, but it has been removed. This occurs when an element is removed from the provider configuration's for_each collection while objects created by that the associated provider instance still exist in the state. Re-add the for_each element to destroy this deposed object for %s, after which you can remove the provider configuration again.",
			addr, dk, pAddr, addr))
	default:
		return diags.Errorf(summary, "%s", fmt.Sprintf(
			"To work with %s's deposed object %s its original provider instance at %s is required, but it has been removed. This suggests that you've added for_each to this provider configuration while there are existing deposed objects of %s that need to be destroyed by the original single-instance provider configuration.\n\n"+
				"To proceed, return to your previous single-instance configuration for %s and ensure that all deposed instances of %s have been destroyed before using for_each with this provider.",
			addr, dk, pAddr, addr, cfg, addr))
	}
}

// firstObject is the deposed key of the first object of is that will be
// planned: NotDeposed when it has a current object.
func firstObject(is *states.ResourceInstance) addrs.DeposedKey {
	if is.Current != nil {
		return addrs.NotDeposed
	}
	if keys := is.SortedDeposedKeys(); len(keys) > 0 {
		return keys[0]
	}
	return addrs.NotDeposed
}
