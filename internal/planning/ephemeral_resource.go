package planning

import (
	"context"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/zclconf/go-cty/cty"
)

// planEphemeralResource opens each instance of an ephemeral block whose
// configuration is wholly known, so that what refers to it plans with
// its value; one whose configuration is not known yet is unknown, and
// not opened, as in Terraform. Nothing is recorded in the plan but the
// expansion: apply opens its own (see applying's openEphemeral), and the
// planner's set closes these when the walk is over.
func (p *planner) planEphemeralResource(ctx context.Context, out *result, r *configs.Resource, addr addrs.AbsResource) diags.Diagnostics {
	rt, ds := p.expandResource(out, r, addr)
	if ds.HasErrors() {
		return ds
	}
	for _, key := range rt.exp.Keys() {
		if rds := p.resolveInstanceProvider(rt, key, addrs.NotDeposed); rds.HasErrors() {
			p.env.Values.SetInstance(addr.Instance(key), cty.UnknownVal(rt.schema.ImpliedType()).Mark(marks.Ephemeral))
			ds = ds.Append(rds)
			continue
		}
		krt := rt.forKey(key)
		t := krt.target(key, addrs.NotDeposed)
		krt.route(t, key)
		ds = ds.Append(p.openEphemeralInstance(ctx, krt, t))
	}
	return ds
}

// openEphemeralInstance checks the preconditions, evaluates and validates
// the configuration, opens the instance when the configuration is known,
// publishes its value and checks the postconditions.
func (p *planner) openEphemeralInstance(ctx context.Context, rt *resourceTarget, t *lifecycle.Target) diags.Diagnostics {
	addr := t.Addr.ResourceInstance
	unknown := lifecycle.UnknownEphemeral(t)
	ds := p.env.CheckInstance(rt.config, addr, rt.exp, eval.ResourcePrecondition, cty.NilVal)
	if ds.HasErrors() {
		p.env.Values.SetInstance(addr, unknown)
		return ds
	}
	config, cds := p.instanceConfig(ctx, rt, t)
	ds = ds.Append(cds)
	if ds.HasErrors() {
		p.env.Values.SetInstance(addr, unknown)
		return ds
	}
	if !marks.Strip(config).IsWhollyKnown() {
		p.env.Values.SetInstance(addr, unknown)
		return ds.Append(p.env.CheckInstance(rt.config, addr, rt.exp, eval.ResourcePostcondition, unknown))
	}
	val, ods := p.ephemerals.Open(ctx, t, config)
	ds = ds.Append(ods)
	if ods.HasErrors() {
		p.env.Values.SetInstance(addr, unknown)
		return ds
	}
	p.env.Values.SetInstance(addr, val)
	return ds.Append(p.env.CheckInstance(rt.config, addr, rt.exp, eval.ResourcePostcondition, val))
}

// openEphemerals gives the run the set its ephemeral resources are
// opened in, for the runs that visit only some vertices (import,
// -generate-config-out, query): a provider configuration they need may
// use one. The function it returns closes them; the caller defers it
// after the provider instances' Close, so it runs first. Problems
// closing are not reported there: those runs record nothing that
// depends on it.
func (p *planner) openEphemerals(ctx context.Context) func() {
	p.ephemerals = lifecycle.NewEphemerals(p.opts.OnEphemeral)
	return func() { _ = p.ephemerals.CloseAll(ctx) }
}
