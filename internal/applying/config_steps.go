package applying

import (
	"context"
	"fmt"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// configureProvider configures a provider configuration with its block
// evaluated now.
func (a *applier) configureProvider(_ context.Context, n plans.Node) diags.Diagnostics {
	addr := a.plan.Graph.Providers[n.Ref]
	mod := a.moduleConfig(addr.Module)
	var cfg *configs.Provider
	if mod != nil {
		cfg = mod.ProviderConfigs[configs.ProviderConfigKey(mod.LocalNameForProvider(addr.Provider), addr.Alias)]
	}
	return eval.ConfigureProvider(a.set, addr, cfg, a.schemas.ProviderConfigSchema(addr.Provider), a.env)
}

// evalLocal evaluates a local value.
func (a *applier) evalLocal(_ context.Context, n plans.Node) diags.Diagnostics {
	addr := a.plan.Graph.Locals[n.Ref]
	mod := a.moduleConfig(addr.Module.Module())
	if mod == nil || mod.Locals[addr.Local.Name] == nil {
		return nil
	}
	val, ds := a.env.Scope(addr.Module).EvalExpr(mod.Locals[addr.Local.Name].Expr, cty.DynamicPseudoType)
	a.env.Values.SetLocal(addr, val)
	return ds
}

// expand publishes the expansion planning recorded for a resource. A
// for_each whose values were unknown while planning is evaluated again so
// instances see their final each.value; its keys must be the planned ones.
func (a *applier) expand(_ context.Context, n plans.Node) diags.Diagnostics {
	addr := a.plan.Graph.Resources[n.Ref]
	planned := a.env.Values.Expansion(addr)
	if planned == nil || planned.WhollyKnown() {
		return nil
	}
	mod := a.moduleConfig(addr.Module.Module())
	r := mod.ResourceByAddr(addr.Resource)
	if r == nil {
		return nil
	}
	exp, ds := eval.Expand(a.env.Scope(addr.Module), r, false)
	if ds.HasErrors() {
		return ds
	}
	if !exp.SameKeys(planned) {
		return ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Instance keys changed during apply",
			Detail:  fmt.Sprintf("The count or for_each of %s produced different instance keys during apply than during planning. This usually means the expression uses a function whose result changes between runs; plan again.", addr),
			Subject: r.DeclRange.Ptr()})
	}
	a.env.Values.DeclareResource(addr, exp, a.instanceType(r))
	return ds
}

// evalOutput evaluates a root output and records it in state, as planning
// decided: its sensitivity is the plan's, and a value that turns out
// sensitive without the output saying so is refused with planning's
// error.
func (a *applier) evalOutput(_ context.Context, n plans.Node) diags.Diagnostics {
	oc := a.plan.Outputs[n.Ref]
	o := a.opts.Config.Outputs[oc.Name]
	if o == nil {
		return nil
	}
	ds := a.env.CheckOutput(o, nil)
	if ds.HasErrors() {
		return ds
	}
	val, vds := a.env.EvalOutputValue(o, nil)
	ds = ds.Append(vds)
	if ds.HasErrors() {
		return ds
	}
	if d := eval.CheckOutputEphemerality(o, true, val); d != nil {
		return ds.Append(*d)
	}
	if d := eval.CheckOutputSensitivity(o, val); d != nil {
		return ds.Append(*d)
	}
	// A value known only now (from a new object's attributes) was not
	// checked in planning; state could not hold an infinity.
	if d := eval.CheckOutputStorable(o, val); d != nil {
		return ds.Append(*d)
	}
	unmarked := marks.Strip(val)
	var stored *states.OutputValue
	switch {
	case !unmarked.IsWhollyKnown() && a.plan.Mode == plans.RefreshOnlyMode:
		// A refresh-only apply creates nothing, so what an output refers
		// to may stay unknown; Terraform records the unknown parts as
		// null, and the output even when it is wholly null.
		stored = &states.OutputValue{Value: cty.UnknownAsNull(unmarked), Sensitive: o.Sensitive}
	case !unmarked.IsWhollyKnown():
		return ds.Append(diags.At(o.Expr.Range(), "Output value not known after apply",
			"The output's value still contains unknown values after apply; this is a bug in a provider or in Cairn."))
	case !unmarked.IsNull():
		stored = &states.OutputValue{Value: unmarked, Sensitive: o.Sensitive}
	}
	// A null root output is removed from state rather than stored, as
	// Terraform does: nothing can refer to a root output, and
	// "output NAME" then reports it as not found.
	if err := a.opts.State.SetOutput(oc.Name, stored); err != nil {
		ds = ds.Append(diags.Errorf("Failed to persist state", "Recording output %s: %s.", oc.Name, err))
	}
	return ds
}

// removeOutput removes an output the plan deletes (destroy, or no longer
// declared).
func (a *applier) removeOutput(_ context.Context, n plans.Node) diags.Diagnostics {
	name := a.plan.Outputs[n.Ref].Name
	if err := a.opts.State.SetOutput(name, nil); err != nil {
		return diags.Diagnostics{diags.Errorf("Failed to persist state", "Removing output %s: %s.", name, err)}
	}
	return nil
}

// instanceType returns the object type of a resource's instances, or
// cty.DynamicPseudoType when its provider has no schema for it.
func (a *applier) instanceType(r *configs.Resource) cty.Type {
	if s, _ := a.schemas.ResourceTypeSchema(r.Provider, r.Mode, r.Type); s != nil {
		return s.ImpliedType()
	}
	return cty.DynamicPseudoType
}
