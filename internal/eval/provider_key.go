package eval

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/instances"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// ResourceProviderInstance returns the provider configuration instance
// that manages resource instance addr of r: the resolved configuration,
// with the key r's provider argument (or the module call that passed the
// configuration) selects when the configuration has for_each. exp is the
// resource's expansion in addr's module instance (nil: no count or
// for_each).
func (e *Env) ResourceProviderInstance(r *configs.Resource, addr addrs.AbsResourceInstance, exp *instances.Expansion) (addrs.AbsProviderConfig, diags.Diagnostics) {
	pAddr := r.ProviderConfigAddr()
	src := r.ProviderKey()
	if src.Expr == nil {
		return pAddr, nil
	}
	var scope *lang.Scope
	if !src.FromCall {
		scope = e.InstanceScope(addr, exp)
	} else {
		// The providers argument is the calling module's, evaluated
		// with the call instance's repetition.
		if len(addr.Module) < len(src.Call) || len(src.Call) == 0 {
			return pAddr, diags.Diagnostics{diags.Errorf("Internal error selecting a provider instance",
				"%s is not in module %s, whose call passes its provider instance. This is a bug in Cairn.", addr, src.Call)}
		}
		mi := addr.Module[:len(src.Call)]
		parent, step := mi[:len(mi)-1], mi[len(mi)-1]
		scope = e.Scope(parent)
		if cexp := e.Values.ModuleCallExpansion(parent, step.Name); cexp != nil {
			scope.Repetition.CountIndex, scope.Repetition.EachKey, scope.Repetition.EachValue = cexp.Repetition(step.Key)
		}
	}
	key, ds := ProviderInstanceKey(scope, src.Expr, addr.String())
	if ds.HasErrors() {
		return pAddr, ds
	}
	return pAddr.Instance(key), ds
}

// ProviderInstanceKey evaluates an instance key expression of a provider
// reference (aws.by_region[each.key]) for source (the resource instance,
// for messages). As in OpenTofu 1.12, the key must be known while
// planning, neither sensitive nor ephemeral nor null; numbers and bools
// become strings, since a provider's instances have string keys.
func ProviderInstanceKey(scope *lang.Scope, expr hcl.Expression, source string) (addrs.InstanceKey, diags.Diagnostics) {
	v, ds := scope.EvalExpr(expr, cty.DynamicPseudoType)
	if ds.HasErrors() {
		return nil, ds
	}
	bad := func(detail string) (addrs.InstanceKey, diags.Diagnostics) {
		return nil, ds.Append(diags.At(expr.Range(), "Invalid provider instance key", detail))
	}
	switch {
	case v.HasMark(configschema.SensitiveMark):
		return bad("A provider instance key must not be derived from a sensitive value.")
	case v.HasMark(marks.Ephemeral):
		return bad("A provider instance key must not be derived from an ephemeral value.")
	case v.IsNull():
		return bad("A provider instance key must not be null.")
	case !v.IsKnown():
		return bad(fmt.Sprintf("The provider instance key for %s depends on values that cannot be determined until apply, and so Cairn cannot select a provider instance to create a plan for this resource instance.", source))
	}
	s, err := convert.Convert(v, cty.String)
	if err != nil {
		return bad(fmt.Sprintf("The given instance key is unsuitable: %s.", err))
	}
	return addrs.StringKey(s.AsString()), ds
}
