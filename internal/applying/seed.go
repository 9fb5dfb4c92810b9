package applying

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/namedvals"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// seedValues fills the value table with what the plan knows before any
// node runs: each resource's recorded expansion and each instance's
// planned value (final for no-ops and data read during planning, replaced
// as changes apply). Expressions evaluated during apply then see every
// resource, changed or not.
func (a *applier) seedValues(vals *namedvals.Values) diags.Diagnostics {
	p := a.plan
	var ds diags.Diagnostics
	for _, e := range p.Expansions {
		mod := a.moduleConfig(e.Addr.Module.Module())
		if mod == nil {
			continue
		}
		r := mod.ResourceByAddr(e.Addr.Resource)
		if r == nil {
			continue
		}
		vals.DeclareResource(e.Addr, e.Expansion, a.instanceType(r))
		// Data sources read during planning have no change, nor has any
		// managed object of a refresh-only plan; their values are in the
		// plan's prior state.
		if r.Mode == addrs.DataResourceMode || p.Mode == plans.RefreshOnlyMode {
			ds = ds.Append(a.seedPriorObjects(vals, e, r.Mode))
		}
		if r.Mode == addrs.ManagedResourceMode && p.Mode == plans.RefreshOnlyMode {
			// Nothing is planned, so the resource is what state has, as
			// planning evaluated it (namedvals.StateShaped).
			keys := p.PriorState.Resource(e.Addr).CurrentKeys()
			vals.SetWhole(e.Addr, namedvals.StateShaped(namedvals.RepetitionOf(r), a.instanceType(r), keys, func(k addrs.InstanceKey) (cty.Value, bool) {
				return vals.Instance(e.Addr.Instance(k))
			}))
		}
	}
	for _, c := range p.Changes {
		if c.DeposedKey != addrs.NotDeposed || c.Action == plans.Delete {
			continue
		}
		vals.SetInstance(c.Addr, c.After)
	}
	return ds
}

// seedPriorObjects records the values of a resource's objects in the
// plan's prior state: the results of a data resource's reads made during
// planning, or the refreshed objects of a refresh-only plan.
func (a *applier) seedPriorObjects(vals *namedvals.Values, e *plans.ResourceExpansion, mode addrs.ResourceMode) diags.Diagnostics {
	rs := a.plan.PriorState.Resource(e.Addr)
	if rs == nil {
		return nil
	}
	schema, _ := a.schemas.ResourceTypeSchema(rs.ProviderConfig.Provider, mode, e.Addr.Resource.Type)
	if schema == nil {
		return nil
	}
	var ds diags.Diagnostics
	for key, is := range rs.Instances {
		if is.Current == nil || !e.Expansion.Has(key) {
			continue
		}
		obj, err := states.DecodeObject(schema, is.Current)
		if err != nil {
			ds = ds.Append(diags.Errorf("Invalid prior object in plan", "%s: %s.", rs.Addr.Instance(key), err))
			continue
		}
		vals.SetInstance(rs.Addr.Instance(key), obj.Value)
	}
	return ds
}
