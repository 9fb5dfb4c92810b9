package applying

import (
	"context"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// current returns the step that applies the change to its current object:
// create (from no prior object: a create, or the create step of
// delete-then-create) or update in place.
func (a *applier) current(create bool) step {
	return func(ctx context.Context, n plans.Node) (diags.Diagnostics, *pending) {
		c := a.plan.Changes[n.Ref]
		in, ds := a.instance(n, c.Addr.Object(addrs.NotDeposed))
		if ds.HasErrors() {
			return ds, nil
		}
		ds, p, _ := a.applyObject(ctx, in, create)
		return ds, p
	}
}

// deposeAndCreate is the first step of create-before-destroy: the current
// object moves aside under the deposed key planning chose, and the new
// object is created. If that leaves no new object (the final plan or the
// create failed), the deposed object becomes current again, as Terraform
// restores it, and the destroy step does not run.
func (a *applier) deposeAndCreate(ctx context.Context, n plans.Node) (diags.Diagnostics, *pending) {
	c := a.plan.Changes[n.Ref]
	cur := c.Addr.Object(addrs.NotDeposed)
	in, ds := a.instance(n, cur)
	if ds.HasErrors() {
		return ds, nil
	}
	old := a.priorObject(cur)
	deposed := c.Addr.Object(n.Deposed)
	if old != nil {
		if err := a.moveObject(c, old, cur, deposed); err != nil {
			return diags.Diagnostics{a.persistError(cur, err)}, nil
		}
	}
	ds, p, created := a.applyObject(ctx, in, true)
	if old != nil && !created {
		if err := a.moveObject(c, old, deposed, cur); err != nil {
			ds = ds.Append(a.persistError(deposed, err))
		}
	}
	return ds, p
}

// moveObject moves object obj of change c's instance from one of its
// addresses to another (current to deposed, or back), the new one
// recorded first so a crash between the two writes loses nothing.
func (a *applier) moveObject(c *plans.ResourceInstanceChange, obj *states.ObjectSrc, from, to addrs.AbsResourceInstanceObject) error {
	if err := a.opts.State.SetObject(to, obj, c.Provider); err != nil {
		return err
	}
	return a.opts.State.SetObject(from, nil, c.Provider)
}

// applyObject makes the final plan for an instance with its now-known
// configuration, checks it against the saved plan, applies it, checks the
// result and records it. create means the object is planned from no prior
// object. created reports whether a new object was recorded.
func (a *applier) applyObject(ctx context.Context, in *instance, create bool) (ds diags.Diagnostics, p *pending, created bool) {
	c, t := in.change, in.target
	if in.config == nil {
		return diags.Diagnostics{diags.Errorf("Missing configuration", "The plan creates or updates %s but the configuration has no such resource.", c.Addr)}, nil, false
	}
	prior := cty.NullVal(t.Schema.ImpliedType())
	var priorPrivate []byte
	if !create {
		prior, priorPrivate = c.Before, c.Private
		if cur := a.priorObject(t.Addr); cur != nil {
			priorPrivate, t.Identity = cur.Private, cur.Identity
		}
	}
	// Preconditions planning could not decide (their values were unknown)
	// are decided now, before the provider is asked for anything.
	ds = a.checkInstance(in, eval.ResourcePrecondition, cty.NilVal)
	if ds.HasErrors() {
		return ds, nil, false
	}
	configVal, cds := a.evalConfig(in)
	ds = ds.Append(cds)
	if ds.HasErrors() {
		return ds, nil, false
	}
	// The provider validated this configuration while it was partly
	// unknown; values learned since are validated before they are sent,
	// as Terraform does, so a bad one is refused by the validator, not
	// by the remote API after a request.
	ds = ds.Append(lifecycle.ValidateConfig(ctx, t, configVal))
	if ds.HasErrors() {
		return ds, nil, false
	}
	planned, pds := lifecycle.FinalPlan(ctx, t, prior, priorPrivate, eval.IgnoreChanges(in.config, prior, configVal), c.After)
	ds = ds.Append(pds)
	if pds.HasErrors() {
		return ds, nil, false
	}
	action := plans.Update
	if create {
		action = plans.Create
	}
	a.opts.Hooks.PreApply(t.Addr, action, prior)
	applied, ads, pendingRecorded := a.apply(ctx, in, planned, create)
	ds = ds.Append(ads)
	wait, recorded, rds := a.recordApplied(in, applied, create, ads.HasErrors(), pendingRecorded)
	ds = ds.Append(rds)
	// Postconditions test the object the provider returned. A failed one
	// fails the run but keeps the object, as Terraform does: it exists,
	// and the next plan checks it again until the condition holds.
	var post diags.Diagnostics
	if recorded && !ds.HasErrors() {
		post = a.checkInstance(in, eval.ResourcePostcondition, applied.Value)
	}
	finish := func(werr error) diags.Diagnostics {
		var fds diags.Diagnostics
		if werr != nil {
			fds = fds.Append(a.persistError(t.Addr, werr))
		}
		a.opts.Hooks.PostApply(t.Addr, action, applied.Value, firstError(append(ds, fds...)))
		return fds.Append(post)
	}
	switch {
	case wait != nil && post.HasErrors():
		// A failed postcondition must fail this node itself, so that
		// its dependents never start; the record is made durable first,
		// since the object is reported complete.
		return ds.Append(finish(wait())), nil, recorded
	case wait != nil && !ds.HasErrors():
		return ds, &pending{wait: wait, done: finish}, recorded
	}
	// An object kept despite errors (tainted, or with values replaced) is
	// durable before the failure is reported, like any other.
	return ds.Append(finish(waitNow(wait))), nil, recorded
}

// apply carries out the final plan. A create the provider reports
// accepted before it finishes is recorded as pending, durably, before the
// provider waits for it (see providers.CreateRecorder); pendingRecorded
// says one was.
func (a *applier) apply(ctx context.Context, in *instance, planned *lifecycle.Planned, create bool) (applied *lifecycle.Applied, ds diags.Diagnostics, pendingRecorded bool) {
	var accepted lifecycle.Accepted
	if create {
		accepted = func(pend *lifecycle.Applied) error {
			wait, recorded, rds := a.recordApplied(in, pend, true, false, false)
			if rds.HasErrors() {
				return rds.Err()
			}
			pendingRecorded = pendingRecorded || recorded
			return waitNow(wait)
		}
	}
	applied, ds = lifecycle.ApplyRecorded(ctx, in.target, planned, accepted)
	return applied, ds, pendingRecorded
}

// waitNow waits for a record's durability, if there is a wait.
func waitNow(wait func() error) error {
	if wait == nil {
		return nil
	}
	return wait()
}

// recordApplied writes the new object to state: tainted when a create
// failed part way (so the next plan replaces it), unless the provider
// says the create's outcome is unknown (Pending: the next refresh learns
// it), as returned otherwise. pendingRecorded says an accepted create was
// recorded as pending during the call: a create that then made nothing
// removes that record, since the provider found that it failed.
// Values state cannot hold (unknowns a misbehaving provider left, infinite
// numbers) are recorded as null, and the object tainted if it was just
// created, so that a created object is never lost to them; the
// diagnostics say so. With an AsyncStateWriter it returns once the object
// is recorded, with a wait for its durability; otherwise wait is nil and
// the object is durable. recorded reports whether a new object is in
// state.
func (a *applier) recordApplied(in *instance, applied *lifecycle.Applied, create, failed, pendingRecorded bool) (wait func() error, recorded bool, ds diags.Diagnostics) {
	c, t := in.change, in.target
	newU, pvm := applied.Unmarked()
	if newU.IsNull() {
		if (create && !pendingRecorded) || (!create && failed) {
			// Nothing was created, or the provider lost track of the
			// object: for an update we keep the prior object.
			return nil, false, nil
		}
		if err := a.opts.State.SetObject(t.Addr, nil, c.Provider); err != nil {
			return nil, false, diags.Diagnostics{a.persistError(t.Addr, err)}
		}
		return nil, false, nil
	}
	status := states.ObjectReady
	if failed && create && !applied.Pending {
		status = states.ObjectTainted
	}
	value := applied.Value
	src, err := a.encodeApplied(in, applied, newU, pvm, status)
	if err != nil || !newU.IsWhollyKnown() {
		safe, replaced := storable(newU)
		if len(replaced) == 0 {
			return nil, false, diags.Diagnostics{a.persistError(t.Addr, err)}
		}
		if create {
			status = states.ObjectTainted
		}
		value = safe.MarkWithPaths(pvm)
		if src, err = a.encodeApplied(in, &lifecycle.Applied{Value: value, Private: applied.Private}, safe, pvm, status); err != nil {
			return nil, false, diags.Diagnostics{a.persistError(t.Addr, err)}
		}
		ds = ds.Append(unstorableDiag(t.Addr, replaced, status))
	}
	// Dependents that call a provider start only after the wait (see
	// callsDependOn); others may read the value before it is durable,
	// which is safe: they record nothing of their own.
	a.env.Values.SetInstance(c.Addr, value)
	wait, err = a.setObject(c, t.Addr, src)
	if err != nil {
		return nil, false, ds.Append(a.persistError(t.Addr, err))
	}
	return wait, true, ds
}

// encodeApplied returns the stored form of an applied object whose value
// without marks is u, with marks pvm.
func (a *applier) encodeApplied(in *instance, applied *lifecycle.Applied, u cty.Value, pvm []cty.PathValueMarks, status states.ObjectStatus) (*states.ObjectSrc, error) {
	c := in.change
	obj := &states.Object{Value: applied.Value, Private: applied.Private, Status: status, Dependencies: c.Dependencies, CreateBeforeDestroy: c.CreateBeforeDestroy, Identity: applied.Identity}
	return states.EncodeObjectUnmarked(in.target.Schema, obj, u, pvm, c.SchemaVersion)
}
