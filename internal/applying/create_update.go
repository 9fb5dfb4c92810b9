package applying

import (
	"context"
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/objchange"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// split is a value with and without its marks, so that each value of an
// apply is walked for marks once.
type split struct {
	v     cty.Value // with marks
	u     cty.Value // without
	marks []cty.PathValueMarks
}

func splitMarks(v cty.Value) split {
	u, pvm := marks.Unmark(v)
	return split{v: v, u: u, marks: pvm}
}

// applyCreateOrUpdate makes the final plan for an instance with its
// now-known configuration, checks it against the plan, applies it, checks
// the result and records it. create means the object is planned from no
// prior object (a create or a replacement's create step).
func (a *applier) applyCreateOrUpdate(ctx context.Context, in *instance, create bool) (diags.Diagnostics, *pending) {
	c := in.change
	if in.config == nil {
		return diags.Diagnostics{diags.Errorf("Missing configuration", "The plan creates or updates %s but the configuration has no such resource.", c.Addr)}, nil
	}
	prior := cty.NullVal(in.schema.ImpliedType())
	var priorPrivate []byte
	if !create {
		prior, priorPrivate = c.Before, c.Private
		if is := a.opts.Plan.PriorState.ResourceInstance(c.Addr); is != nil && is.Current != nil {
			priorPrivate = is.Current.Private
		}
	}
	configVal, ds := a.instanceConfig(in)
	if ds.HasErrors() {
		return ds, nil
	}
	p, config := splitMarks(prior), splitMarks(eval.IgnoreChanges(in.config, prior, configVal))
	redact := append(marks.Paths(p.marks), marks.Paths(config.marks)...)
	planned, private, pds := a.finalPlan(ctx, in, p, config, priorPrivate, redact)
	ds = ds.Append(pds)
	if pds.HasErrors() {
		return ds, nil
	}
	action := plans.Update
	if create {
		action = plans.Create
	}
	a.opts.Hooks.PreApply(c.Addr, addrs.NotDeposed, action, prior)
	newVal, ads := a.callApply(ctx, in, p, planned, config, private, redact)
	ds = ds.Append(ads)
	wait, err := a.recordApplied(in, newVal, create, ads.HasErrors())
	if err != nil {
		ds = ds.Append(persistError(c, err))
	}
	finish := func(werr error) diags.Diagnostics {
		var fds diags.Diagnostics
		if werr != nil {
			fds = fds.Append(persistError(c, werr))
		}
		a.opts.Hooks.PostApply(c.Addr, addrs.NotDeposed, action, newVal.v, firstError(append(ds, fds...)))
		return fds
	}
	if wait != nil && !ds.HasErrors() {
		return ds, &pending{wait: wait, done: finish}
	}
	return ds.Append(finish(nil)), nil
}

func (a *applier) instanceConfig(in *instance) (cty.Value, diags.Diagnostics) {
	key := in.change.Addr.Resource.Key
	exp := a.env.Values.Expansion(in.change.Addr.Resource.Resource)
	val, ds := a.env.InstanceScope(exp, key).EvalPrepared(a.env.PreparedBlock(in.config, in.schema))
	if ds.HasErrors() {
		return val, ds
	}
	return in.schema.MarkSensitive(val), ds
}

// finalPlan re-plans the instance with the configuration as known now and
// checks the result keeps every value the saved plan knew. The planned
// value carries the configuration's and the schema's marks.
func (a *applier) finalPlan(ctx context.Context, in *instance, prior, config split, private []byte, redact []cty.Path) (split, []byte, diags.Diagnostics) {
	c := in.change
	resp := in.provider.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
		TypeName: c.Addr.Resource.Resource.Type, PriorState: prior.u, ProposedNewState: objchange.ProposedNew(in.schema, prior.u, config.u),
		Config: config.u, PriorPrivate: private, ProviderMeta: cty.NullVal(cty.DynamicPseudoType),
	})
	ds := resp.Diagnostics.InBody(in.config.Config, in.config.DeclRange).WithAddressOf(c.Addr)
	if ds.HasErrors() {
		return split{}, nil, ds
	}
	plannedU := resp.PlannedState
	planned := splitMarks(in.schema.MarkSensitive(marks.Apply(plannedU, config.marks)))
	planned.u = plannedU
	if resp.LegacyTypeSystem {
		return planned, resp.PlannedPrivate, ds
	}
	for _, err := range objchange.AssertPlanValidUnmarked(in.schema, prior.u, config.u, plannedU, redact) {
		ds = ds.Append(contractDiag("Provider produced invalid plan", c, fmt.Sprintf("planned an invalid value for %s", err)))
	}
	savedU, savedMarks := marks.Unmark(c.After)
	for _, err := range objchange.AssertObjectCompatibleUnmarked(in.schema, savedU, plannedU, append(redact, marks.Paths(savedMarks)...)) {
		ds = ds.Append(contractDiag("Provider produced inconsistent final plan", c,
			fmt.Sprintf("when expanding the plan to include new values learned so far during apply, it produced an invalid new value for %s", err)))
	}
	return planned, resp.PlannedPrivate, ds
}

// callApply calls ApplyResourceChange and checks the new object keeps every
// value the final plan knew and has no unknowns left. The result carries
// the planned value's marks. A provider error may still come with a
// partial object, which is returned.
func (a *applier) callApply(ctx context.Context, in *instance, prior, planned, config split, private []byte, redact []cty.Path) (split, diags.Diagnostics) {
	c := in.change
	resp := in.provider.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
		TypeName: c.Addr.Resource.Resource.Type, PriorState: prior.u, PlannedState: planned.u, Config: config.u,
		PlannedPrivate: private, ProviderMeta: cty.NullVal(cty.DynamicPseudoType),
	})
	ds := resp.Diagnostics.InBody(in.config.Config, in.config.DeclRange).WithAddressOf(c.Addr)
	null := cty.NullVal(in.schema.ImpliedType())
	newU := resp.NewState
	if newU == cty.NilVal || newU.IsNull() {
		return split{v: null, u: null}, ds
	}
	if errs := newU.Type().TestConformance(in.schema.ImpliedType()); len(errs) > 0 {
		return split{v: null, u: null}, ds.Append(contractDiag("Provider produced invalid object", c,
			fmt.Sprintf("the new object does not conform to the schema: %s", errs[0])))
	}
	newVal := split{v: marks.Apply(newU, planned.marks), u: newU, marks: planned.marks}
	if ds.HasErrors() || resp.LegacyTypeSystem {
		return newVal, ds
	}
	for _, err := range objchange.AssertObjectCompatibleUnmarked(in.schema, planned.u, newU, redact) {
		ds = ds.Append(contractDiag("Provider produced inconsistent result after apply", c,
			fmt.Sprintf("it produced an unexpected new value: %s", err)))
	}
	for _, err := range objchange.AssertWhollyKnown(newU) {
		ds = ds.Append(contractDiag("Provider produced inconsistent result after apply", c,
			fmt.Sprintf("the new object still has an unknown value at %s", err)))
	}
	return newVal, ds
}

// recordApplied writes the new object to state: tainted when a create
// failed part way (so the next plan replaces it), as returned otherwise.
// Unknowns left by a misbehaving provider cannot be stored, so such an
// object is kept out of state (the error was reported). With an
// AsyncStateWriter it returns once the object is recorded, with a wait
// for its durability; otherwise wait is nil and the object is durable.
func (a *applier) recordApplied(in *instance, newVal split, create, failed bool) (wait func() error, err error) {
	c := in.change
	if newVal.u.IsNull() {
		if create || failed {
			// Nothing was created, or the provider lost track of the
			// object: for an update we keep the prior object.
			return nil, nil
		}
		return nil, a.opts.State.SetObject(c.Addr, addrs.NotDeposed, nil, c.Provider)
	}
	if !newVal.u.IsWhollyKnown() {
		return nil, nil
	}
	status := states.ObjectReady
	if failed && create {
		status = states.ObjectTainted
	}
	obj := &states.Object{Value: newVal.v, Status: status, Dependencies: c.Dependencies, CreateBeforeDestroy: c.CreateBeforeDestroy}
	src, err := eval.EncodeObjectUnmarked(in.schema, obj, newVal.u, newVal.marks, c.SchemaVersion)
	if err != nil {
		return nil, err
	}
	// Dependents start only when this node completes, after the wait, so
	// publishing the value first is safe.
	a.env.Values.SetInstance(c.Addr.Resource, newVal.v)
	return a.setObject(c, addrs.NotDeposed, src)
}

func contractDiag(summary string, c *plans.ResourceInstanceChange, what string) diags.Diagnostic {
	return diags.Diagnostic{
		Severity: diags.Error,
		Summary:  summary,
		Detail: fmt.Sprintf("Provider %q produced an invalid result for %s: %s.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.",
			c.Provider.Provider.String(), c.Addr, what),
		Address: c.Addr.String(),
	}
}

func firstError(ds diags.Diagnostics) error {
	for _, d := range ds {
		if d.Severity == diags.Error {
			return fmt.Errorf("%s", d.Summary)
		}
	}
	return nil
}
