package planning

import (
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/zclconf/go-cty/cty"
)

// planOutput evaluates a root output and plans its change against the
// value in state.
func (p *planner) planOutput(o *configs.Output) diags.Diagnostics {
	if p.opts.Mode == plans.DestroyMode {
		return p.planOutputDelete(o.Name)
	}
	val, ds := p.env.Scope().EvalExpr(o.Expr, cty.DynamicPseudoType)
	if ds.HasErrors() {
		return ds
	}
	if !o.Sensitive && val.ContainsMarked() {
		return ds.Append(diags.Diagnostic{
			Severity: diags.Error,
			Summary:  "Output refers to sensitive values",
			Detail: "To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, Cairn requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.\n\n" +
				"If you do intend to export this data, annotate the output value as sensitive by adding the following argument:\n    sensitive = true",
			Subject: o.Expr.Range().Ptr(),
		})
	}
	change := &plans.OutputChange{Name: o.Name, After: val, Sensitive: o.Sensitive, Before: cty.NullVal(cty.DynamicPseudoType)}
	prior := p.opts.PrevState.Outputs[o.Name]
	if prior != nil {
		change.Before = prior.Value
		// A change is shown as sensitive when either side is, as in
		// Terraform: dropping sensitive = true must not reveal the old
		// value in the plan.
		change.Sensitive = o.Sensitive || prior.Sensitive
	}
	switch {
	case val.IsNull() && change.Before.IsNull():
		// Null before and after: nothing to do, whatever the
		// sensitivity. A null root output is never stored (see
		// applying), so a new null output is a no-op, not a create.
		change.Action = plans.NoOp
	case prior == nil:
		change.Action = plans.Create
	case valuesEqual(prior.Value, unmarkedIf(val)) && prior.Sensitive == o.Sensitive:
		change.Action = plans.NoOp
	default:
		change.Action = plans.Update
	}
	p.mu.Lock()
	p.outputs = append(p.outputs, change)
	p.mu.Unlock()
	return ds
}

func unmarkedIf(v cty.Value) cty.Value {
	u := marks.Strip(v)
	return u
}

func (p *planner) planOutputDelete(name string) diags.Diagnostics {
	prior := p.opts.PrevState.Outputs[name]
	if prior == nil {
		return nil
	}
	p.mu.Lock()
	p.outputs = append(p.outputs, &plans.OutputChange{Name: name, Action: plans.Delete, Before: prior.Value, After: cty.NullVal(cty.DynamicPseudoType), Sensitive: prior.Sensitive})
	p.mu.Unlock()
	return nil
}

// planRemovedOutputs deletes outputs that state has and configuration
// no longer declares.
func (p *planner) planRemovedOutputs() {
	for _, name := range sortedKeys(p.opts.PrevState.Outputs) {
		if _, ok := p.opts.Config.Outputs[name]; !ok {
			p.planOutputDelete(name)
		}
	}
}
