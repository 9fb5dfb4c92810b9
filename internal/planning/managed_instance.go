package planning

import (
	"context"
	"fmt"

	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/marks"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/namedvals"
	"github.com/cairn-iac/cairn/internal/objchange"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// planManagedInstance plans one instance of a resource block: read and
// refresh its prior object, evaluate its configuration, ask the provider
// for a plan, check the answer, and decide the action.
func (p *planner) planManagedInstance(ctx context.Context, r *configs.Resource, t *target, exp *namedvals.Expansion, is *states.ResourceInstance, deps []addrs.AbsResource) diags.Diagnostics {
	var ds diags.Diagnostics
	var prior *states.Object
	if is != nil && is.Current != nil {
		obj, pds := p.priorObject(ctx, t, is.Current)
		ds = ds.Append(pds)
		if pds.HasErrors() {
			return ds
		}
		obj, rds := p.refresh(ctx, t, obj, is.Current)
		ds = ds.Append(rds)
		if rds.HasErrors() {
			return ds
		}
		prior = obj
	}
	config, cds := p.instanceConfig(ctx, r, t, exp)
	ds = ds.Append(cds)
	if cds.HasErrors() {
		p.env.Values.SetInstance(t.addr.Resource, cty.UnknownVal(t.schema.ImpliedType()))
		return ds
	}
	change, pds := p.planChange(ctx, r, t, exp, prior, config)
	ds = ds.Append(pds)
	if pds.HasErrors() {
		p.env.Values.SetInstance(t.addr.Resource, cty.UnknownVal(t.schema.ImpliedType()))
		return ds
	}
	change.Dependencies = deps
	change.CreateBeforeDestroy = p.cbd[r.Addr()]
	ds = ds.Append(checkPreventDestroy(r, change))
	p.env.Values.SetInstance(t.addr.Resource, change.After)
	p.record(change)
	return ds
}

// instanceConfig evaluates the instance's configuration body, marks the
// schema's sensitive attributes and lets the provider validate it.
func (p *planner) instanceConfig(ctx context.Context, r *configs.Resource, t *target, exp *namedvals.Expansion) (cty.Value, diags.Diagnostics) {
	scope := p.env.InstanceScope(exp, t.addr.Resource.Key)
	val, ds := scope.EvalPrepared(p.env.PreparedBlock(r, t.schema))
	if ds.HasErrors() {
		return val, ds
	}
	val = t.schema.MarkSensitive(val)
	unmarked := marks.Strip(val)
	var vds diags.Diagnostics
	if r.Mode == addrs.DataResourceMode {
		vds = t.provider.ValidateDataResourceConfig(ctx, providers.ValidateDataResourceConfigRequest{TypeName: r.Type, Config: unmarked}).Diagnostics
	} else {
		vds = t.provider.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{TypeName: r.Type, Config: unmarked}).Diagnostics
	}
	return val, ds.Append(vds.InBody(r.Config, r.DeclRange).WithAddressOf(t.addr))
}

// planChange asks the provider to plan the instance and turns the answer
// into a change with an action.
func (p *planner) planChange(ctx context.Context, r *configs.Resource, t *target, exp *namedvals.Expansion, prior *states.Object, config cty.Value) (*plans.ResourceInstanceChange, diags.Diagnostics) {
	nullVal := cty.NullVal(t.schema.ImpliedType())
	priorVal, priorPrivate := nullVal, []byte(nil)
	if prior != nil {
		priorVal, priorPrivate = prior.Value, prior.Private
	}
	origConfig := config
	config = eval.IgnoreChanges(r, priorVal, config)
	planned, reqRep, private, ds := p.callPlan(ctx, r, t, priorVal, config, priorPrivate)
	if ds.HasErrors() {
		return nil, ds
	}
	change := &plans.ResourceInstanceChange{
		Addr: t.addr, Provider: t.pAddr, Before: priorVal, After: planned, Private: private, SchemaVersion: t.version,
	}
	if prior == nil {
		change.Action = plans.Create
		return change, ds
	}
	var rep lang.Repetition
	rep.CountIndex, rep.EachKey, rep.EachValue = exp.Repetition(t.addr.Resource.Key)
	triggered, tds := p.replaceTriggered(r, t, rep)
	ds = ds.Append(tds)
	change.Action, change.ActionReason, change.RequiredReplace = decideAction(actionInput{
		prior: priorVal, planned: planned, requiresReplace: reqRep,
		tainted: prior.Status == states.ObjectTainted, forced: p.forced[t.addr.UniqueKey()], triggered: triggered,
		createBeforeDestroy: p.cbd[r.Addr()],
	})
	if change.Action.IsReplace() {
		// The new object is planned as a create, from no prior object and
		// from the configuration as written: ignore_changes keeps values
		// of an existing object, and the new object has none. Terraform
		// plans replacements this way, and apply's final plan for the
		// create step (no prior object) sees the same configuration.
		createPlanned, _, createPrivate, cds := p.callPlan(ctx, r, t, nullVal, origConfig, nil)
		ds = ds.Append(cds)
		if cds.HasErrors() {
			return nil, ds
		}
		change.After, change.Private = createPlanned, createPrivate
	}
	return change, ds
}

// callPlan computes the proposed new state, calls PlanResourceChange and
// checks the answer against the contract. The planned value comes back with
// the configuration's and the schema's sensitive marks.
func (p *planner) callPlan(ctx context.Context, r *configs.Resource, t *target, prior, config cty.Value, private []byte) (cty.Value, []cty.Path, []byte, diags.Diagnostics) {
	priorU := marks.Strip(prior)
	configU, configMarks := marks.Unmark(config)
	proposed := objchange.ProposedNew(t.schema, priorU, configU)
	resp := t.provider.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
		TypeName: r.Type, PriorState: priorU, ProposedNewState: proposed, Config: configU, PriorPrivate: private,
		ProviderMeta: cty.NullVal(cty.DynamicPseudoType),
	})
	ds := resp.Diagnostics.InBody(r.Config, r.DeclRange).WithAddressOf(t.addr)
	if ds.HasErrors() {
		return cty.NilVal, nil, nil, ds
	}
	planned := t.schema.MarkSensitive(resp.PlannedState.MarkWithPaths(configMarks))
	if errs := objchange.AssertPlanValid(t.schema, prior, config, planned); len(errs) > 0 && !resp.LegacyTypeSystem {
		for _, err := range errs {
			ds = ds.Append(p.contractError("Provider produced invalid plan", t, fmt.Sprintf("planned an invalid value for %s", err)))
		}
		return cty.NilVal, nil, nil, ds
	}
	return planned, resp.RequiresReplace, resp.PlannedPrivate, ds
}

// planDelete plans the deletion of an object (an orphaned instance or a
// deposed object), refreshing it first so a vanished object is just
// forgotten.
func (p *planner) planDelete(ctx context.Context, t *target, src *states.ObjectSrc, reason plans.ActionReason) diags.Diagnostics {
	obj, ds := p.priorObject(ctx, t, src)
	if ds.HasErrors() {
		return ds
	}
	obj, rds := p.refresh(ctx, t, obj, src)
	ds = ds.Append(rds)
	if rds.HasErrors() || obj == nil {
		return ds
	}
	p.record(&plans.ResourceInstanceChange{
		Addr: t.addr, DeposedKey: t.deposed, Provider: t.pAddr, Action: plans.Delete, ActionReason: reason,
		Before: obj.Value, After: cty.NullVal(t.schema.ImpliedType()), Private: obj.Private, SchemaVersion: t.version,
	})
	return ds
}

// checkPreventDestroy refuses a plan that would destroy an instance whose
// configuration sets lifecycle.prevent_destroy.
func checkPreventDestroy(r *configs.Resource, c *plans.ResourceInstanceChange) diags.Diagnostics {
	if r.Managed == nil || !r.Managed.PreventDestroy {
		return nil
	}
	if c.Action != plans.Delete && !c.Action.IsReplace() {
		return nil
	}
	return diags.Diagnostics{{
		Severity: diags.Error,
		Summary:  "Instance cannot be destroyed",
		Detail: fmt.Sprintf("Resource %s has lifecycle.prevent_destroy set, but the plan calls for this resource to be destroyed. To avoid this error and continue with the plan, either disable lifecycle.prevent_destroy or change the configuration so the plan does not destroy it.",
			c.Addr),
		Subject: r.DeclRange.Ptr(),
	}}
}
