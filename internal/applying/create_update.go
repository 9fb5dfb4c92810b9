package applying

import (
	"context"
	"fmt"
	"github.com/cairn-iac/cairn/internal/marks"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/objchange"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// applyCreateOrUpdate makes the final plan for an instance with its
// now-known configuration, checks it against the plan, applies it, checks
// the result and records it. create means the object is planned from no
// prior object (a create or a replacement's create step).
func (a *applier) applyCreateOrUpdate(ctx context.Context, in *instance, create bool) diags.Diagnostics {
	c := in.change
	if in.config == nil {
		return diags.Diagnostics{diags.Errorf("Missing configuration", "The plan creates or updates %s but the configuration has no such resource.", c.Addr)}
	}
	prior := cty.NullVal(in.schema.ImpliedType())
	var priorPrivate []byte
	if !create {
		prior, priorPrivate = c.Before, c.Private
		if is := a.opts.Plan.PriorState.ResourceInstance(c.Addr); is != nil && is.Current != nil {
			priorPrivate = is.Current.Private
		}
	}
	config, ds := a.instanceConfig(in)
	if ds.HasErrors() {
		return ds
	}
	config = eval.IgnoreChanges(in.config, prior, config)
	planned, private, pds := a.finalPlan(ctx, in, prior, config, priorPrivate)
	ds = ds.Append(pds)
	if pds.HasErrors() {
		return ds
	}
	action := plans.Update
	if create {
		action = plans.Create
	}
	a.opts.Hooks.PreApply(c.Addr, states.NotDeposed, action, prior)
	newVal, ads := a.callApply(ctx, in, prior, planned, config, private)
	ds = ds.Append(ads)
	err := a.recordApplied(in, newVal, create, ads.HasErrors())
	if err != nil {
		ds = ds.Append(persistError(c, err))
	}
	a.opts.Hooks.PostApply(c.Addr, states.NotDeposed, action, newVal, firstError(ds))
	return ds
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
// checks the result keeps every value the saved plan knew.
func (a *applier) finalPlan(ctx context.Context, in *instance, prior, config cty.Value, private []byte) (cty.Value, []byte, diags.Diagnostics) {
	c := in.change
	priorU := marks.Strip(prior)
	configU, configMarks := marks.Unmark(config)
	resp := in.provider.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
		TypeName: c.Addr.Resource.Resource.Type, PriorState: priorU, ProposedNewState: objchange.ProposedNew(in.schema, priorU, configU),
		Config: configU, PriorPrivate: private, ProviderMeta: cty.NullVal(cty.DynamicPseudoType),
	})
	ds := resp.Diagnostics.InBody(in.config.Config, in.config.DeclRange).WithAddressOf(c.Addr)
	if ds.HasErrors() {
		return cty.NilVal, nil, ds
	}
	planned := in.schema.MarkSensitive(resp.PlannedState.MarkWithPaths(configMarks))
	if resp.LegacyTypeSystem {
		return planned, resp.PlannedPrivate, ds
	}
	for _, err := range objchange.AssertPlanValid(in.schema, prior, config, planned) {
		ds = ds.Append(contractDiag("Provider produced invalid plan", c, fmt.Sprintf("planned an invalid value for %s", err)))
	}
	for _, err := range objchange.AssertObjectCompatible(in.schema, c.After, planned) {
		ds = ds.Append(contractDiag("Provider produced inconsistent final plan", c,
			fmt.Sprintf("when expanding the plan to include new values learned so far during apply, it produced an invalid new value for %s", err)))
	}
	return planned, resp.PlannedPrivate, ds
}

// callApply calls ApplyResourceChange and checks the new object keeps every
// value the final plan knew and has no unknowns left. The result carries
// the planned value's marks. A provider error may still come with a
// partial object, which is returned.
func (a *applier) callApply(ctx context.Context, in *instance, prior, planned, config cty.Value, private []byte) (cty.Value, diags.Diagnostics) {
	c := in.change
	priorU := marks.Strip(prior)
	plannedU, plannedMarks := marks.Unmark(planned)
	configU := marks.Strip(config)
	resp := in.provider.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
		TypeName: c.Addr.Resource.Resource.Type, PriorState: priorU, PlannedState: plannedU, Config: configU,
		PlannedPrivate: private, ProviderMeta: cty.NullVal(cty.DynamicPseudoType),
	})
	ds := resp.Diagnostics.InBody(in.config.Config, in.config.DeclRange).WithAddressOf(c.Addr)
	newVal := resp.NewState
	if newVal == cty.NilVal || newVal.IsNull() {
		return cty.NullVal(in.schema.ImpliedType()), ds
	}
	if errs := newVal.Type().TestConformance(in.schema.ImpliedType()); len(errs) > 0 {
		return cty.NullVal(in.schema.ImpliedType()), ds.Append(contractDiag("Provider produced invalid object", c,
			fmt.Sprintf("the new object does not conform to the schema: %s", errs[0])))
	}
	newVal = in.schema.MarkSensitive(newVal.MarkWithPaths(plannedMarks))
	if ds.HasErrors() || resp.LegacyTypeSystem {
		return newVal, ds
	}
	for _, err := range objchange.AssertObjectCompatible(in.schema, planned, newVal) {
		ds = ds.Append(contractDiag("Provider produced inconsistent result after apply", c,
			fmt.Sprintf("it produced an unexpected new value: %s", err)))
	}
	for _, err := range objchange.AssertWhollyKnown(newVal) {
		ds = ds.Append(contractDiag("Provider produced inconsistent result after apply", c,
			fmt.Sprintf("the new object still has an unknown value at %s", err)))
	}
	return newVal, ds
}

// recordApplied writes the new object to state: tainted when a create
// failed part way (so the next plan replaces it), as returned otherwise.
// Unknowns left by a misbehaving provider cannot be stored, so such an
// object is kept out of state (the error was reported).
func (a *applier) recordApplied(in *instance, newVal cty.Value, create, failed bool) error {
	c := in.change
	if newVal.IsNull() {
		if create || failed {
			// Nothing was created, or the provider lost track of the
			// object: for an update we keep the prior object.
			return nil
		}
		return a.opts.State.SetObject(c.Addr, states.NotDeposed, nil, c.Provider)
	}
	unmarked := marks.Strip(newVal)
	if !unmarked.IsWhollyKnown() {
		return nil
	}
	obj := &states.Object{Value: newVal, Status: states.ObjectReady, Dependencies: c.Dependencies, CreateBeforeDestroy: c.CreateBeforeDestroy}
	if failed && create {
		obj.Status = states.ObjectTainted
	}
	src, err := eval.EncodeObject(in.schema, obj, c.SchemaVersion)
	if err != nil {
		return err
	}
	if err := a.opts.State.SetObject(c.Addr, states.NotDeposed, src, c.Provider); err != nil {
		return err
	}
	a.env.Values.SetInstance(c.Addr.Resource, newVal)
	return nil
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
