package applying

import (
	"context"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// delete deletes the change's current object: a delete, or the destroy
// step of delete-then-create.
func (a *applier) delete(ctx context.Context, n plans.Node) (diags.Diagnostics, *pending) {
	c := a.plan.Changes[n.Ref]
	return a.deleteObject(ctx, n, c.Addr.Object(addrs.NotDeposed))
}

// deleteDeposed deletes the deposed object the node names: one an earlier
// run left, or the old object of create-before-destroy.
func (a *applier) deleteDeposed(ctx context.Context, n plans.Node) (diags.Diagnostics, *pending) {
	c := a.plan.Changes[n.Ref]
	if c.Action == plans.CreateThenDelete && a.priorObject(c.Addr.Object(addrs.NotDeposed)) == nil {
		// There was no object to depose, so there is none to delete.
		return nil, nil
	}
	return a.deleteObject(ctx, n, c.Addr.Object(n.Deposed))
}

// deleteObject deletes one object. On success it leaves state; on failure
// it stays, so the next plan tries again.
func (a *applier) deleteObject(ctx context.Context, n plans.Node, addr addrs.AbsResourceInstanceObject) (diags.Diagnostics, *pending) {
	in, ds := a.instance(n, addr)
	if ds.HasErrors() {
		return ds, nil
	}
	c := in.change
	prior, private := c.Before, c.Private
	if c.Action != plans.Delete {
		// The old object of a replacement: the change's private data is
		// the new object's plan, so the old object's own goes instead.
		if src := a.priorObject(c.Addr.Object(addrs.NotDeposed)); src != nil {
			private = src.Private
		}
	}
	a.opts.Hooks.PreApply(addr, plans.Delete, prior)
	ds = lifecycle.Delete(ctx, in.target, prior, private)
	var wait func() error
	if !ds.HasErrors() {
		var err error
		if wait, err = a.setObject(c, addr, nil); err != nil {
			ds = ds.Append(a.persistError(addr, err))
		}
	}
	finish := func(werr error) diags.Diagnostics {
		var fds diags.Diagnostics
		if werr != nil {
			fds = fds.Append(a.persistError(addr, werr))
		}
		a.opts.Hooks.PostApply(addr, plans.Delete, cty.NullVal(in.target.Schema.ImpliedType()), firstError(append(ds, fds...)))
		return fds
	}
	if wait != nil && !ds.HasErrors() {
		return ds, &pending{wait: wait, done: finish}
	}
	return ds.Append(finish(nil)), nil
}

// read reads a data source deferred to apply time, through the same checks
// as a read made while planning.
func (a *applier) read(ctx context.Context, n plans.Node) diags.Diagnostics {
	c := a.plan.Changes[n.Ref]
	in, ds := a.instance(n, c.Addr.Object(addrs.NotDeposed))
	if ds.HasErrors() || in.config == nil {
		return ds
	}
	t := in.target
	ds = a.checkInstance(in, eval.ResourcePrecondition, cty.NilVal)
	if ds.HasErrors() {
		return ds
	}
	config, cds := a.evalConfig(in)
	ds = ds.Append(cds, lifecycle.ValidateConfig(ctx, t, config))
	if ds.HasErrors() {
		return ds
	}
	a.opts.Hooks.PreApply(t.Addr, plans.Read, cty.NullVal(t.Schema.ImpliedType()))
	val, rds := lifecycle.ReadData(ctx, t, config)
	if rds.HasErrors() && in.config.Check != "" {
		// Terraform keeps the failed read's object, its computed
		// attributes null, in state.
		failed := cty.UnknownAsNull(lifecycle.PlannedData(t.Schema, marks.Strip(config)))
		src, err := states.EncodeObject(t.Schema, &states.Object{Value: failed, Status: states.ObjectReady}, c.SchemaVersion)
		if err == nil {
			err = a.opts.State.SetObject(t.Addr, src, c.Provider)
		}
		if err != nil {
			ds = ds.Append(diags.Errorf("Failed to persist state", "Recording %s: %s.", t.Addr, err))
		}
		return ds.Append(a.scopedReadFailed(in, rds))
	}
	ds = ds.Append(rds)
	if ds.HasErrors() {
		a.opts.Hooks.PostApply(t.Addr, plans.Read, cty.NilVal, firstError(ds))
		return ds
	}
	src, err := states.EncodeObject(t.Schema, &states.Object{Value: val, Status: states.ObjectReady}, c.SchemaVersion)
	if err == nil {
		err = a.opts.State.SetObject(t.Addr, src, c.Provider)
	}
	if err != nil {
		ds = ds.Append(a.persistError(t.Addr, err))
	}
	a.env.Values.SetInstance(c.Addr, val)
	a.opts.Hooks.PostApply(t.Addr, plans.Read, val, firstError(ds))
	if ds.HasErrors() {
		return ds
	}
	return ds.Append(a.checkInstance(in, eval.ResourcePostcondition, val))
}

// check decides the conditions of an instance planning found nothing to
// change; those whose values were unknown while planning are known now.
// Preconditions come first, and a failed one stops there, as in the steps
// that change an object; postconditions see the object as it is.
func (a *applier) check(_ context.Context, n plans.Node) diags.Diagnostics {
	c := a.plan.Changes[n.Ref]
	mod := a.moduleConfig(c.Addr.Module.Module())
	if mod == nil {
		return nil
	}
	in := &instance{change: c, config: mod.ResourceByAddr(c.Addr.Resource.Resource)}
	if in.config == nil {
		return nil
	}
	ds := a.checkInstance(in, eval.ResourcePrecondition, cty.NilVal)
	if ds.HasErrors() {
		return ds
	}
	return ds.Append(a.checkInstance(in, eval.ResourcePostcondition, c.After))
}
