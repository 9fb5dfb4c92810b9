package applying

import (
	"fmt"
	"github.com/cairn-iac/cairn/internal/marks"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

func (a *applier) applyLocal(name string) diags.Diagnostics {
	l := a.opts.Config.Locals[name]
	if l == nil {
		return nil
	}
	val, ds := a.env.Scope().EvalExpr(l.Expr, cty.DynamicPseudoType)
	a.env.Values.SetLocal(name, val)
	return ds
}

// applyExpand re-evaluates count or for_each now that everything they refer
// to is applied, so instances see their final each.value. The instance
// keys must be the ones the plan was made for.
func (a *applier) applyExpand(addr addrs.AbsResource) diags.Diagnostics {
	r := a.opts.Config.ResourceByAddr(addr.Resource)
	if r == nil {
		return nil
	}
	exp, ds := eval.Expand(a.env.Scope(), r, false)
	if ds.HasErrors() {
		return ds
	}
	planned := a.env.Values.Expansion(addr.Resource)
	if planned != nil && !sameKeys(planned, exp) {
		return ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Instance keys changed during apply",
			Detail:  fmt.Sprintf("The count or for_each of %s produced different instance keys during apply than during planning. This usually means the expression uses a function whose result changes between runs; plan again.", addr),
			Subject: r.DeclRange.Ptr()})
	}
	ty := cty.DynamicPseudoType
	if s, _ := a.schemas.ResourceTypeSchema(r.Provider, r.Mode, r.Type); s != nil {
		ty = s.ImpliedType()
	}
	a.env.Values.DeclareResource(addr.Resource, exp, ty)
	return ds
}

func sameKeys(a, b interface{ Keys() []addrs.InstanceKey }) bool {
	ak, bk := a.Keys(), b.Keys()
	if len(ak) != len(bk) {
		return false
	}
	for i := range ak {
		if ak[i] != bk[i] {
			return false
		}
	}
	return true
}

// applyOutput evaluates a root output and records it in state.
func (a *applier) applyOutput(name string) diags.Diagnostics {
	o := a.opts.Config.Outputs[name]
	if o == nil {
		return nil
	}
	val, ds := a.env.Scope().EvalExpr(o.Expr, cty.DynamicPseudoType)
	if ds.HasErrors() {
		return ds
	}
	if !o.Sensitive && val.ContainsMarked() {
		return ds.Append(diags.At(o.Expr.Range(), "Output refers to sensitive values",
			"Mark the output as sensitive = true to export a value derived from sensitive data."))
	}
	unmarked := marks.Strip(val)
	if !unmarked.IsWhollyKnown() {
		return ds.Append(diags.At(o.Expr.Range(), "Output value not known after apply",
			"The output's value still contains unknown values after apply; this is a bug in a provider or in Cairn."))
	}
	var stored *states.OutputValue
	if !unmarked.IsNull() {
		stored = &states.OutputValue{Value: unmarked, Sensitive: o.Sensitive}
	}
	// A null root output is removed from state rather than stored, as
	// Terraform does: nothing can refer to a root output, and
	// "output NAME" then reports it as not found.
	if err := a.opts.State.SetOutput(name, stored); err != nil {
		ds = ds.Append(diags.Errorf("Failed to persist state", "Recording output %s: %s.", name, err))
	}
	return ds
}

// removeOutputs removes outputs the plan deletes (destroy, or no longer
// declared).
func (a *applier) removeOutputs() diags.Diagnostics {
	var ds diags.Diagnostics
	for _, oc := range a.opts.Plan.Outputs {
		if oc.Action != plans.Delete {
			continue
		}
		if err := a.opts.State.SetOutput(oc.Name, nil); err != nil {
			ds = ds.Append(diags.Errorf("Failed to persist state", "Removing output %s: %s.", oc.Name, err))
		}
	}
	return ds
}
