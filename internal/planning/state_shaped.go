package planning

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/namedvals"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// pinStateShaped makes references to the whole resource rt see what
// Terraform's evaluator gives in a walk that plans no change (a
// refresh-only plan, an import): namedvals.StateShaped, built from the
// instances the state has rather than the configuration's expansion.
// Planning otherwise adds an object for every instance the expansion
// wants, so the two differ only when nothing is planned: a counted
// resource with two of its three objects is a tuple of two, one with no
// object at all is empty. An import's evaluator cannot tell an expansion
// with no instances from one it has not seen: there a resource with no
// object is dynamic when repeated and an unknown object when single.
func (p *planner) pinStateShaped(rt *resourceTarget, prior *states.Resource) {
	ty := rt.schema.ImpliedType()
	rep := namedvals.RepetitionOf(rt.config)
	keys := prior.CurrentKeys()
	if len(keys) == 0 && p.opts.importWalk {
		whole := cty.UnknownVal(ty)
		if rep != namedvals.Single {
			whole = cty.DynamicVal
		}
		p.env.Values.SetWhole(rt.addr, whole)
		return
	}
	p.env.Values.SetWhole(rt.addr, namedvals.StateShaped(rep, ty, keys, func(k addrs.InstanceKey) (cty.Value, bool) {
		return p.env.Values.Instance(rt.addr.Instance(k))
	}))
}
