package applying

import (
	"context"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/marks"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// applyDelete deletes an object: an orphan, a deposed object, or the old
// object of a replacement. On success the object leaves state; on failure
// it stays, so the next plan tries again.
func (a *applier) applyDelete(ctx context.Context, in *instance, phase plans.Phase) (diags.Diagnostics, *pending) {
	c := in.change
	deposed := addrs.NotDeposed
	if phase == plans.DestroyPhase || c.DeposedKey != addrs.NotDeposed {
		deposed = a.deposedKeyFor(in)
	}
	if c.Action == plans.CreateThenDelete && deposed == addrs.NotDeposed {
		// The create step found no prior object to depose; nothing to do.
		return nil, nil
	}
	prior := c.Before
	priorU := marks.Strip(prior)
	private := c.Private
	a.opts.Hooks.PreApply(c.Addr, deposed, plans.Delete, prior)
	resp := in.provider.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
		TypeName: c.Addr.Resource.Resource.Type, PriorState: priorU, PlannedState: cty.NullVal(in.schema.ImpliedType()),
		Config: cty.NullVal(in.schema.ImpliedType()), PlannedPrivate: private, ProviderMeta: cty.NullVal(cty.DynamicPseudoType),
	})
	ds := resp.Diagnostics.WithAddressOf(c.Addr)
	var wait func() error
	if !ds.HasErrors() {
		if resp.NewState != cty.NilVal && !resp.NewState.IsNull() {
			ds = ds.Append(contractDiag("Provider produced inconsistent result after apply", c,
				"deleting the object returned a non-null new state"))
		} else {
			var err error
			if wait, err = a.setObject(c, deposed, nil); err != nil {
				ds = ds.Append(persistError(c, err))
			}
		}
	}
	finish := func(werr error) diags.Diagnostics {
		var fds diags.Diagnostics
		if werr != nil {
			fds = fds.Append(persistError(c, werr))
		}
		a.opts.Hooks.PostApply(c.Addr, deposed, plans.Delete, cty.NullVal(in.schema.ImpliedType()), firstError(append(ds, fds...)))
		return fds
	}
	if wait != nil && !ds.HasErrors() {
		return ds, &pending{wait: wait, done: finish}
	}
	return ds.Append(finish(nil)), nil
}

// applyRead reads a data source deferred to apply time.
func (a *applier) applyRead(ctx context.Context, in *instance) diags.Diagnostics {
	c := in.change
	if in.config == nil {
		return nil
	}
	config, ds := a.instanceConfig(in)
	if ds.HasErrors() {
		return ds
	}
	configU, cfgMarks := marks.Unmark(config)
	a.opts.Hooks.PreApply(c.Addr, addrs.NotDeposed, plans.Read, cty.NullVal(in.schema.ImpliedType()))
	resp := in.provider.ReadDataSource(ctx, providers.ReadDataSourceRequest{TypeName: c.Addr.Resource.Resource.Type, Config: configU, ProviderMeta: cty.NullVal(cty.DynamicPseudoType)})
	ds = ds.Append(resp.Diagnostics.InBody(in.config.Config, in.config.DeclRange).WithAddressOf(c.Addr))
	val := resp.State
	if !ds.HasErrors() {
		if val == cty.NilVal || val.IsNull() || val.Type().TestConformance(in.schema.ImpliedType()) != nil || !val.IsWhollyKnown() {
			ds = ds.Append(contractDiag("Provider produced invalid object", c, "the data source returned a null, unknown or non-conforming object"))
		}
	}
	if ds.HasErrors() {
		a.opts.Hooks.PostApply(c.Addr, addrs.NotDeposed, plans.Read, cty.NilVal, firstError(ds))
		return ds
	}
	val = in.schema.MarkSensitive(val.MarkWithPaths(cfgMarks))
	src, err := eval.EncodeObject(in.schema, &states.Object{Value: val, Status: states.ObjectReady, Dependencies: c.Dependencies}, c.SchemaVersion)
	if err == nil {
		err = a.opts.State.SetObject(c.Addr, addrs.NotDeposed, src, c.Provider)
	}
	if err != nil {
		ds = ds.Append(persistError(c, err))
	}
	a.env.Values.SetInstance(c.Addr.Resource, val)
	a.opts.Hooks.PostApply(c.Addr, addrs.NotDeposed, plans.Read, val, firstError(ds))
	return ds
}
