package planning

import (
	"maps"
	"slices"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// planOutput evaluates an output of module instance m. A root output's
// change is planned against the value in state, and its sensitivity
// decided here, once: apply records what this decides.
func (p *planner) planOutput(out *result, o *configs.Output, m addrs.ModuleInstance) diags.Diagnostics {
	if !m.IsRoot() {
		// Child module outputs are values for their callers, which module
		// calls will read; they have no change of their own.
		return nil
	}
	if p.opts.Mode == plans.DestroyMode {
		if c := p.outputDelete(o.Name); c != nil {
			out.outputs = append(out.outputs, c)
		}
		return nil
	}
	ds := p.env.CheckOutput(o, m)
	if ds.HasErrors() {
		return ds
	}
	val, vds := p.env.EvalOutputValue(o, m)
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
	if d := eval.CheckOutputStorable(o, val); d != nil {
		return ds.Append(*d)
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
	case valuesEqual(prior.Value, marks.Strip(val)) && prior.Sensitive == o.Sensitive:
		change.Action = plans.NoOp
	default:
		change.Action = plans.Update
	}
	out.outputs = append(out.outputs, change)
	refreshOutput(out, o, val)
	return ds
}

// refreshOutput records a root output's new value in the refreshed state
// when it is wholly known, as Terraform does: the plan's prior state then
// shows it, and a refresh-only apply records it. A null root output is
// not stored.
func refreshOutput(out *result, o *configs.Output, val cty.Value) {
	if !val.IsWhollyKnown() {
		return
	}
	ov := outputValue{name: o.Name}
	if !val.IsNull() {
		ov.value = &states.OutputValue{Value: marks.Strip(val), Sensitive: o.Sensitive}
	}
	out.outputValues = append(out.outputValues, ov)
}

// outputDelete returns the change deleting a root output state has, or
// nil when it has none.
func (p *planner) outputDelete(name string) *plans.OutputChange {
	prior := p.opts.PrevState.Outputs[name]
	if prior == nil {
		return nil
	}
	return &plans.OutputChange{Name: name, Action: plans.Delete, Before: prior.Value, After: cty.NullVal(cty.DynamicPseudoType), Sensitive: prior.Sensitive}
}

// planRemovedOutputs deletes outputs that state has and configuration
// no longer declares. It runs after the walk.
func (p *planner) planRemovedOutputs() {
	for _, name := range slices.Sorted(maps.Keys(p.opts.PrevState.Outputs)) {
		if _, ok := p.opts.Config.Outputs[name]; !ok {
			if c := p.outputDelete(name); c != nil {
				p.outputs = append(p.outputs, c)
			}
		}
	}
}
