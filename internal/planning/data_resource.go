package planning

import (
	"context"
	"time"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// planDataResource reads each instance of a data block now when its
// configuration is wholly known and none of its depends_on targets has
// changes pending; otherwise it plans a read during apply, whose result is
// unknown until then.
func (p *planner) planDataResource(ctx context.Context, out *result, r *configs.Resource, addr addrs.AbsResource, deps []addrs.AbsResource) diags.Diagnostics {
	rt, ds := p.expandResource(out, r, addr)
	if ds.HasErrors() {
		return ds
	}
	v, _ := p.cg.resourceVertex(addr.Config())
	pending := p.dataDepsPending(v, addr.Module)
	for _, key := range rt.exp.Keys() {
		if !p.targets.plansInstance(addr.Instance(key)) {
			continue
		}
		if rds := p.resolveInstanceProvider(rt, key, addrs.NotDeposed); rds.HasErrors() {
			p.env.Values.SetInstance(addr.Instance(key), cty.UnknownVal(rt.schema.ImpliedType()))
			ds = ds.Append(rds)
			continue
		}
		krt := rt.forKey(key)
		t := krt.target(key, addrs.NotDeposed)
		krt.route(t, key)
		ds = ds.Append(p.planDataInstance(ctx, out, krt, t, pending, deps))
	}
	// Data instances that are no longer wanted are simply dropped from
	// state; nothing remote is destroyed.
	if prior := p.opts.PrevState.Resource(addr); prior != nil {
		for key := range prior.Instances {
			if !rt.exp.Has(key) {
				out.setPrior(addr.Instance(key).Object(addrs.NotDeposed), nil, prior.InstanceProvider(key))
			}
		}
	}
	return ds
}

func (p *planner) planDataInstance(ctx context.Context, out *result, rt *resourceTarget, t *lifecycle.Target, pending bool, deps []addrs.AbsResource) diags.Diagnostics {
	if rt.config.Check != "" {
		return p.planScopedDataInstance(ctx, out, rt, t, pending, deps)
	}
	addr := t.Addr.ResourceInstance
	ds := p.env.CheckInstance(rt.config, addr, rt.exp, eval.ResourcePrecondition, cty.NilVal)
	if ds.HasErrors() {
		p.env.Values.SetInstance(addr, cty.UnknownVal(rt.schema.ImpliedType()))
		return ds
	}
	config, cds := p.instanceConfig(ctx, rt, t)
	ds = ds.Append(cds)
	if ds.HasErrors() {
		p.env.Values.SetInstance(addr, cty.UnknownVal(rt.schema.ImpliedType()))
		return ds
	}
	if known := marks.Strip(config).IsWhollyKnown(); !known || pending {
		reason := plans.ReasonReadBecauseConfigUnknown
		if known {
			reason = plans.ReasonReadBecauseDependencyPending
		}
		planned := lifecycle.PlannedData(rt.schema, config)
		p.env.Values.SetInstance(addr, planned)
		p.record(&out.records, &plans.ResourceInstanceChange{
			Addr: addr, Provider: rt.providerAddr(addr.Resource.Key), Action: plans.Read, ActionReason: reason,
			Before: cty.NullVal(rt.schema.ImpliedType()), After: planned, SchemaVersion: rt.version, Dependencies: deps,
		})
		// self holds what the read will be given; conditions on what it
		// returns are unknown now and checked after the read in apply.
		return ds.Append(p.env.CheckInstance(rt.config, addr, rt.exp, eval.ResourcePostcondition, planned))
	}
	val, rds := p.readData(ctx, t, config)
	ds = ds.Append(rds)
	if rds.HasErrors() {
		return ds
	}
	src, err := states.EncodeObject(rt.schema, &states.Object{Value: val, Status: states.ObjectReady}, rt.version)
	if err != nil {
		return ds.Append(diags.Errorf("Failed to record data source result", "%s: %s.", addr, err))
	}
	out.setPrior(t.Addr, src, rt.providerAddr(addr.Resource.Key))
	p.env.Values.SetInstance(addr, val)
	return ds.Append(p.env.CheckInstance(rt.config, addr, rt.exp, eval.ResourcePostcondition, val))
}

// readData reads a data source while planning, reporting the read as it
// starts and, when it succeeds, as it ends.
func (p *planner) readData(ctx context.Context, t *lifecycle.Target, config cty.Value) (cty.Value, diags.Diagnostics) {
	addr := t.Addr.ResourceInstance
	if p.opts.OnRead != nil {
		p.opts.OnRead(addr)
	}
	start := time.Now()
	val, ds := lifecycle.ReadData(ctx, t, config)
	if !ds.HasErrors() && p.opts.OnReadComplete != nil {
		// The hook may show the object's id: attributes the schema calls
		// sensitive are marked so it never does.
		p.opts.OnReadComplete(addr, t.Schema.MarkSensitive(val), time.Since(start))
	}
	return val, ds
}
