package planning

import (
	"context"
	"fmt"

	"github.com/cairn-iac/cairn/internal/marks"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/namedvals"
	"github.com/cairn-iac/cairn/internal/objchange"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// planDataResource reads each instance of a data block now when its
// configuration is wholly known and none of its depends_on targets has
// changes pending; otherwise it plans a read during apply, whose result is
// unknown until then.
func (p *planner) planDataResource(ctx context.Context, r *configs.Resource, deps []addrs.AbsResource) diags.Diagnostics {
	rt, ds := p.expandResource(r)
	if ds.HasErrors() {
		return ds
	}
	addr, schema, version, exp, provider := rt.addr, rt.schema, rt.version, rt.exp, rt.provider
	pending := p.dependsOnPending(r, addr.Module)
	for _, key := range exp.Keys() {
		t := &target{addr: addr.Instance(key), pAddr: r.ProviderConfigAddr(), provider: provider, schema: schema, version: version}
		ds = ds.Append(p.planDataInstance(ctx, r, t, exp, pending, deps))
	}
	// Data instances that are no longer wanted are simply dropped from
	// state; nothing remote is destroyed.
	if prior := p.opts.PrevState.Resource(addr); prior != nil {
		for key := range prior.Instances {
			if !exp.Has(key) {
				p.setRefreshed(addr.Instance(key), addrs.NotDeposed, nil, r.ProviderConfigAddr())
			}
		}
	}
	return ds
}

func (p *planner) planDataInstance(ctx context.Context, r *configs.Resource, t *target, exp *namedvals.Expansion, pending bool, deps []addrs.AbsResource) diags.Diagnostics {
	config, ds := p.instanceConfig(ctx, r, t, exp)
	if ds.HasErrors() {
		p.env.Values.SetInstance(t.addr.Resource, cty.UnknownVal(t.schema.ImpliedType()))
		return ds
	}
	configU, cfgMarks := marks.Unmark(config)
	if !configU.IsWhollyKnown() || pending {
		reason := plans.ReasonReadBecauseConfigUnknown
		if configU.IsWhollyKnown() {
			reason = plans.ReasonReadBecauseDependencyPending
		}
		planned := t.schema.MarkSensitive(plannedDataObject(t.schema, configU).MarkWithPaths(cfgMarks))
		p.env.Values.SetInstance(t.addr.Resource, planned)
		p.record(&plans.ResourceInstanceChange{
			Addr: t.addr, Provider: t.pAddr, Action: plans.Read, ActionReason: reason,
			Before: cty.NullVal(t.schema.ImpliedType()), After: planned, SchemaVersion: t.version, Dependencies: deps,
		})
		return ds
	}
	val, rds := readData(ctx, t, r, configU)
	ds = ds.Append(rds)
	if rds.HasErrors() {
		return ds
	}
	val = t.schema.MarkSensitive(val.MarkWithPaths(cfgMarks))
	src, err := eval.EncodeObject(t.schema, &states.Object{Value: val, Status: states.ObjectReady, Dependencies: deps}, t.version)
	if err != nil {
		return ds.Append(diags.Errorf("Failed to record data source result", "%s: %s.", t.addr, err))
	}
	p.setRefreshed(t.addr, addrs.NotDeposed, src, t.pAddr)
	p.env.Values.SetInstance(t.addr.Resource, val)
	return ds
}

// readData calls ReadDataSource and checks the result: it must conform to
// the schema, keep every configured value, and be wholly known.
func readData(ctx context.Context, t *target, r *configs.Resource, config cty.Value) (cty.Value, diags.Diagnostics) {
	resp := t.provider.ReadDataSource(ctx, providers.ReadDataSourceRequest{TypeName: r.Type, Config: config, ProviderMeta: cty.NullVal(cty.DynamicPseudoType)})
	ds := resp.Diagnostics.InBody(r.Config, r.DeclRange).WithAddressOf(t.addr)
	if ds.HasErrors() {
		return cty.NilVal, ds
	}
	val := resp.State
	if val.IsNull() || val.Type().TestConformance(t.schema.ImpliedType()) != nil {
		return cty.NilVal, ds.Append(contractDiag("Provider produced invalid object", t.pAddr.Provider, t.addr,
			"the data source returned a null object or one that does not conform to its schema"))
	}
	problems := append(objchange.AssertWhollyKnown(val), objchange.AssertPlanValid(t.schema, cty.NullVal(val.Type()), config, val)...)
	for _, err := range problems {
		ds = ds.Append(contractDiag("Provider produced invalid object", t.pAddr.Provider, t.addr, fmt.Sprintf("reading the data source gave %s", err)))
	}
	return val, ds
}

// plannedDataObject is the value of a data source to be read during apply:
// its configuration with every computed attribute the configuration leaves
// null unknown.
func plannedDataObject(schema *configschema.Block, config cty.Value) cty.Value {
	if !config.IsKnown() || config.IsNull() {
		return cty.UnknownVal(schema.ImpliedType())
	}
	attrs := config.AsValueMap()
	if attrs == nil {
		attrs = map[string]cty.Value{}
	}
	for name, a := range schema.Attributes {
		if a.Computed && config.GetAttr(name).IsNull() {
			attrs[name] = cty.UnknownVal(a.ImpliedType())
		}
	}
	return cty.ObjectVal(attrs)
}

// dependsOnPending reports whether any resource named in the data block's
// depends_on has a change planned: its result could differ after apply.
func (p *planner) dependsOnPending(r *configs.Resource, m addrs.ModuleInstance) bool {
	for _, t := range r.DependsOn {
		ref, ds := addrs.ParseRef(t)
		if ds.HasErrors() || ref == nil {
			continue
		}
		var res addrs.Resource
		switch sub := ref.Subject.(type) {
		case addrs.Resource:
			res = sub
		case addrs.ResourceInstance:
			res = sub.Resource
		default:
			continue
		}
		if p.hasPendingChanges(res.Absolute(m)) {
			return true
		}
	}
	return false
}
