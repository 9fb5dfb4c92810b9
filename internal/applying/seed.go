package applying

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/namedvals"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/zclconf/go-cty/cty"
)

// seedValues fills the value table with what the plan knows before any
// node runs: each configured resource's instance keys and each instance's
// planned value (final for no-ops and data read during planning, replaced
// as changes apply). Expressions evaluated during apply then see every
// resource, changed or not.
func seedValues(cfg *configs.Module, p *plans.Plan, schemas providers.Schemas, vals *namedvals.Values) diags.Diagnostics {
	var ds diags.Diagnostics
	type seed struct {
		keys   map[addrs.InstanceKey]cty.Value
		schema cty.Type
	}
	seeds := map[addrs.Resource]*seed{}
	get := func(r *configs.Resource) *seed {
		s := seeds[r.Addr()]
		if s == nil {
			schema, _ := schemas.ResourceTypeSchema(r.Provider, r.Mode, r.Type)
			ty := cty.DynamicPseudoType
			if schema != nil {
				ty = schema.ImpliedType()
			}
			s = &seed{keys: map[addrs.InstanceKey]cty.Value{}, schema: ty}
			seeds[r.Addr()] = s
		}
		return s
	}
	for _, c := range p.Changes {
		r := cfg.ResourceByAddr(c.Addr.Resource.Resource)
		if r == nil || c.DeposedKey != "" || c.Action == plans.Delete {
			continue
		}
		get(r).keys[c.Addr.Resource.Key] = c.After
	}
	// Data sources read during planning have no change; their results are
	// in the plan's prior state.
	for _, r := range cfg.DataResources {
		rs := p.PriorState.Resource(r.Addr().Absolute(addrs.RootModuleInstance))
		if rs == nil {
			continue
		}
		s := get(r)
		for key, is := range rs.Instances {
			if _, planned := s.keys[key]; planned || is.Current == nil {
				continue
			}
			obj, err := is.Current.Decode(s.schema)
			if err != nil {
				ds = ds.Append(diags.Errorf("Invalid data source result in plan", "%s: %s.", rs.Addr.Instance(key), err))
				continue
			}
			s.keys[key] = obj.Value
		}
	}
	for _, m := range []map[string]*configs.Resource{cfg.ManagedResources, cfg.DataResources} {
		for _, r := range m {
			s := get(r)
			vals.DeclareResource(r.Addr(), expansionOf(r, s.keys), s.schema)
			for key, v := range s.keys {
				vals.SetInstance(r.Addr().Instance(key), v)
			}
		}
	}
	return ds
}

// expansionOf rebuilds a resource's expansion from its planned instance
// keys. each.value is filled in by the resource's expand node, which
// re-evaluates for_each once its references are known.
func expansionOf(r *configs.Resource, keys map[addrs.InstanceKey]cty.Value) *namedvals.Expansion {
	switch {
	case r.Count != nil:
		return &namedvals.Expansion{Mode: namedvals.ExpandCount, Count: len(keys)}
	case r.ForEach != nil:
		each := make(map[string]cty.Value, len(keys))
		for k := range keys {
			if sk, ok := k.(addrs.StringKey); ok {
				each[string(sk)] = cty.DynamicVal
			}
		}
		return &namedvals.Expansion{Mode: namedvals.ExpandForEach, Each: each}
	}
	return &namedvals.Expansion{Mode: namedvals.ExpandSingle}
}
