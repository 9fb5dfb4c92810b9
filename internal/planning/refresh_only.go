package planning

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// refreshOnly reports whether the plan only records what refresh found
// (-refresh-only): objects are read, no resource action is planned.
func (p *planner) refreshOnly() bool { return p.opts.Mode == plans.RefreshOnlyMode }

// refreshOnlyInstance finishes one configured instance of a refresh-only
// plan once its prior object was refreshed: nothing is planned, and the
// instance's value for expressions is the refreshed object, so outputs
// follow the remote object. An instance with no object (one a normal plan
// would create) is unknown, as Terraform evaluates it.
//
// Conditions are checked against the refreshed object and reported as
// warnings: Terraform does so, since a refresh-only plan exists to record
// drift, including drift that breaks an assumption.
func (p *planner) refreshOnlyInstance(rt *resourceTarget, addr addrs.AbsResourceInstance, prior *states.Object) diags.Diagnostics {
	val := cty.UnknownVal(rt.schema.ImpliedType())
	if prior != nil {
		val = prior.Value
	}
	ds := p.env.CheckInstance(rt.config, addr, rt.exp, eval.ResourcePrecondition, cty.NilVal)
	p.env.Values.SetInstance(addr, val)
	if prior != nil {
		ds = ds.Append(p.env.CheckInstance(rt.config, addr, rt.exp, eval.ResourcePostcondition, val))
	}
	return asWarnings(ds)
}

// asWarnings returns ds with every error turned into a warning.
func asWarnings(ds diags.Diagnostics) diags.Diagnostics {
	if !ds.HasErrors() {
		return ds
	}
	out := make(diags.Diagnostics, len(ds))
	for i, d := range ds {
		d.Severity = diags.Warning
		out[i] = d
	}
	return out
}
