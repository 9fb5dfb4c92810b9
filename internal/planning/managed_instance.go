package planning

import (
	"context"
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// planManagedInstance plans one instance of a resource block: read and
// refresh its prior object, evaluate its configuration, ask the provider
// for a plan, check the answer, and decide the action.
func (p *planner) planManagedInstance(ctx context.Context, out *records, rt *resourceTarget, key addrs.InstanceKey, is *states.ResourceInstance, deps []addrs.AbsResource) diags.Diagnostics {
	if ds := p.resolveInstanceProvider(rt, key, addrs.NotDeposed); ds.HasErrors() {
		p.env.Values.SetInstance(rt.addr.Instance(key), cty.UnknownVal(rt.schema.ImpliedType()))
		return ds
	}
	rt = rt.forKey(key)
	t := rt.target(key, addrs.NotDeposed)
	rt.route(t, key)
	addr := t.Addr.ResourceInstance
	prior, importing, ds := p.instancePrior(ctx, out, rt, t, is)
	if ds.HasErrors() {
		return ds
	}
	if p.refreshOnly() {
		// No import block applies here: p.importSets is empty.
		return ds.Append(p.refreshOnlyInstance(rt, addr, prior))
	}
	// Preconditions hold before anything is planned, as in Terraform: a
	// failed one stops this instance (and so its dependents) only.
	pre := p.env.CheckInstance(rt.config, addr, rt.exp, eval.ResourcePrecondition, cty.NilVal)
	ds = ds.Append(pre)
	if pre.HasErrors() {
		p.env.Values.SetInstance(addr, cty.UnknownVal(rt.schema.ImpliedType()))
		return ds
	}
	config, cds := p.instanceConfig(ctx, rt, t)
	ds = ds.Append(cds)
	if cds.HasErrors() {
		p.env.Values.SetInstance(addr, cty.UnknownVal(rt.schema.ImpliedType()))
		return ds
	}
	change, pds := p.planChange(ctx, rt, t, prior, config)
	ds = ds.Append(pds)
	if pds.HasErrors() {
		p.env.Values.SetInstance(addr, cty.UnknownVal(rt.schema.ImpliedType()))
		return ds
	}
	change.Dependencies = deps
	if change.Action == plans.NoOp && prior != nil && importing == nil && !sameResources(prior.Dependencies, deps) {
		// The prior state holds this object with prior's dependencies
		// (as read, or as stored), so only a difference is recorded.
		out.dependencies = append(out.dependencies, objectDependencies{addr: t.Addr, deps: deps})
	}
	change.Importing = importing
	change.CreateBeforeDestroy = p.cbd[rt.addr.Config().UniqueKey()]
	ds = ds.Append(p.checkPreventDestroy(rt.config, addr, change.Action))
	p.env.Values.SetInstance(addr, change.After)
	p.record(out, change)
	// Postconditions see the planned value as self; one that depends on
	// values known only after apply is checked by apply instead.
	return ds.Append(p.env.CheckInstance(rt.config, addr, rt.exp, eval.ResourcePostcondition, change.After))
}

// instancePrior returns the prior object of the instance t plans: its
// current object in state, read and refreshed, or else the object an
// import block names, imported (importing then says so); nil when there
// is neither.
func (p *planner) instancePrior(ctx context.Context, out *records, rt *resourceTarget, t *lifecycle.Target, is *states.ResourceInstance) (*states.Object, *plans.Importing, diags.Diagnostics) {
	if is != nil && is.Current != nil {
		if ds := p.crossTypeMove(rt, t); ds.HasErrors() {
			return nil, nil, ds
		}
		pAddr := rt.providerAddr(t.Addr.ResourceInstance.Resource.Key)
		n := len(out.objects)
		obj, ds := p.readPrior(ctx, out, t, pAddr, is.Current)
		if rt.keyed != nil && obj != nil && len(out.objects) == n && is.ProviderKey != pAddr.Key {
			// The configuration now selects another provider instance:
			// the object is recorded with it even when nothing else
			// changes, as OpenTofu writes the instance it resolved.
			out.setPrior(t.Addr, is.Current, pAddr)
		}
		return obj, nil, ds
	}
	// An import block's object becomes the prior object; one already in
	// state makes the block a no-op, as in Terraform.
	imp := p.importFor(t.Addr.ResourceInstance)
	if imp == nil {
		return nil, nil, nil
	}
	obj, ds := p.importPrior(ctx, out, rt, t, imp.key)
	if ds.HasErrors() {
		return nil, nil, ds
	}
	importing := imp.key.importing()
	importing.GeneratedConfig = p.opts.GeneratedConfig[t.Addr.ResourceInstance.UniqueKey()]
	return obj, importing, ds
}

// instanceConfig evaluates the instance's configuration body, marks the
// schema's sensitive attributes and lets the provider validate it.
func (p *planner) instanceConfig(ctx context.Context, rt *resourceTarget, t *lifecycle.Target) (cty.Value, diags.Diagnostics) {
	scope := p.env.InstanceScope(t.Addr.ResourceInstance, rt.exp)
	val, ds := scope.EvalPrepared(p.env.PreparedBlock(rt.config, rt.schema))
	if ds.HasErrors() {
		return val, ds
	}
	// An ephemeral resource's arguments may take ephemeral values: they
	// are sent to the provider and kept nowhere.
	if p.ephemeral && t.Addr.ResourceInstance.Resource.Resource.Mode != addrs.EphemeralResourceMode {
		if eds := eval.CheckNoEphemeral(val, rt.schema, rt.config.Config, rt.config.DeclRange); eds.HasErrors() {
			return val, ds.Append(eds.WithAddressOf(t.Addr.ResourceInstance))
		}
	}
	val = rt.schema.MarkSensitive(val)
	return val, ds.Append(lifecycle.ValidateConfig(ctx, t, val))
}

// planChange asks the provider to plan the instance and turns the answer
// into a change with an action.
func (p *planner) planChange(ctx context.Context, rt *resourceTarget, t *lifecycle.Target, prior *states.Object, config cty.Value) (*plans.ResourceInstanceChange, diags.Diagnostics) {
	r := rt.config
	nullVal := cty.NullVal(rt.schema.ImpliedType())
	priorVal, priorPrivate := nullVal, []byte(nil)
	if prior != nil {
		priorVal, priorPrivate, t.Identity = prior.Value, prior.Private, prior.Identity
	}
	planned, ds := lifecycle.Plan(ctx, t, priorVal, priorPrivate, eval.IgnoreChanges(r, priorVal, config))
	if ds.HasErrors() {
		return nil, ds
	}
	addr := t.Addr.ResourceInstance
	change := &plans.ResourceInstanceChange{
		Addr: addr, Provider: rt.providerAddr(addr.Resource.Key), Before: priorVal, After: planned.Value, Private: planned.Private, SchemaVersion: rt.version,
	}
	if prior == nil {
		change.Action = plans.Create
		return change, ds
	}
	var rep lang.Repetition
	rep.CountIndex, rep.EachKey, rep.EachValue = rt.exp.Repetition(addr.Resource.Key)
	triggered, tds := p.replaceTriggered(r, addr, rep)
	ds = ds.Append(tds)
	change.Action, change.ActionReason, change.RequiredReplace = decideAction(actionInput{
		prior: priorVal, planned: planned.Value, requiresReplace: planned.RequiresReplace, writeOnlyReplace: writeOnlyPaths(rt.schema, planned.RequiresReplace),
		tainted: prior.Status == states.ObjectTainted, forced: p.forced[addr.UniqueKey()], triggered: triggered,
		createBeforeDestroy: p.cbd[rt.addr.Config().UniqueKey()],
	})
	if change.Action.IsReplace() {
		// The new object is planned as a create, from no prior object and
		// from the configuration as written: ignore_changes keeps values
		// of an existing object, and the new object has none. Terraform
		// plans replacements this way, and apply's final plan for the
		// create step (no prior object) sees the same configuration.
		created, cds := lifecycle.Plan(ctx, t, nullVal, nil, config)
		ds = ds.Append(cds)
		if cds.HasErrors() {
			return nil, ds
		}
		change.After, change.Private = created.Value, created.Private
	}
	return change, ds
}

// checkPreventDestroy refuses a plan that would destroy an instance whose
// configuration sets lifecycle.prevent_destroy.
func (p *planner) checkPreventDestroy(r *configs.Resource, addr addrs.AbsResourceInstance, action plans.Action) diags.Diagnostics {
	if r == nil || r.Managed == nil {
		return nil
	}
	if r.Managed.PreventDestroyExpr != nil {
		return p.checkDynamicPreventDestroy(r, addr, action)
	}
	if !r.Managed.PreventDestroy {
		return nil
	}
	if action != plans.Delete && !action.IsReplace() {
		return nil
	}
	return diags.Diagnostics{{
		Severity: diags.Error,
		Summary:  "Instance cannot be destroyed",
		Detail: fmt.Sprintf("Resource %s has lifecycle.prevent_destroy set, but the plan calls for this resource to be destroyed. To avoid this error and continue with the plan, either disable lifecycle.prevent_destroy or change the configuration so the plan does not destroy it.",
			addr),
		Subject: r.DeclRange.Ptr(),
	}}
}
