package eval

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/lang/typeconv"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// ModuleVariable evaluates the input variable v of a child module
// instance addr: the call's argument (arg, nil when the call does not set
// it) in the caller's scope, or the default; then nullable, type
// defaults, conversion, sensitivity and validation rules as for a root
// variable. Marks the argument's value carries (sensitive values passed
// in) are kept.
func (e *Env) ModuleVariable(addr addrs.AbsInputVariable, v *configs.Variable, arg *hcl.Attribute, caller *lang.Scope) (cty.Value, diags.Diagnostics) {
	if arg == nil {
		if v.Default == cty.NilVal {
			return cty.DynamicVal, diags.Diagnostics{diags.At(v.DeclRange, "Missing required argument",
				fmt.Sprintf("The argument %q is required, but no definition was found.", v.Name))}
		}
		return e.checkModuleVariable(addr, v, v.Default, nil)
	}
	val, ds := caller.EvalExpr(arg.Expr, cty.DynamicPseudoType)
	if v.Deprecated != "" {
		ds = ds.Append(diags.Diagnostic{Severity: diags.Warning, Summary: "Variable marked as deprecated by the module author",
			Detail:  fmt.Sprintf("Variable %q is marked as deprecated with the following message:\n%s", v.Name, v.Deprecated),
			Subject: arg.Expr.Range().Ptr()})
	}
	if ds.HasErrors() {
		return cty.UnknownVal(v.Type), ds
	}
	out, cds := e.checkModuleVariable(addr, v, val, arg.Expr.Range().Ptr())
	return out, ds.Append(cds)
}

func (e *Env) checkModuleVariable(addr addrs.AbsInputVariable, v *configs.Variable, val cty.Value, rng *hcl.Range) (cty.Value, diags.Diagnostics) {
	invalid := func(detail string) diags.Diagnostics {
		d := diags.Diagnostic{Severity: diags.Error, Summary: "Invalid value for input variable", Detail: detail, Subject: rng}
		if rng == nil {
			d.Subject = v.DeclRange.Ptr()
		}
		return diags.Diagnostics{d}
	}
	if val.IsNull() && !v.Nullable {
		if v.Default == cty.NilVal || v.Default.IsNull() {
			return cty.UnknownVal(v.Type), invalid("The given value is null, but this variable does not accept null values.")
		}
		val = v.Default
	}
	unmarked, pvm := val.UnmarkDeepWithPaths()
	if v.TypeDefaults != nil && !unmarked.IsNull() {
		unmarked = v.TypeDefaults.Apply(unmarked)
	}
	conv, err := typeconv.Convert(unmarked, v.Type)
	if err != nil {
		return cty.UnknownVal(v.Type), invalid(fmt.Sprintf("The given value is not suitable for %s declared at %s: %s.",
			addr, rangeText(v.DeclRange), diags.FormatError(err)))
	}
	conv = conv.MarkWithPaths(pvm)
	if !v.Ephemeral && marks.AnyEphemeral(pvm) {
		return cty.UnknownVal(v.Type), invalidEphemeral(v, rng)
	}
	conv = markVariable(v, conv)
	ds := validateVariable(v, map[string]cty.Value{v.Name: conv}, e.ModuleFuncs(addr.Module.Module()), e.ModuleDir)
	return conv, ds
}

// invalidEphemeral is Terraform's and OpenTofu's error for an ephemeral
// value given to a variable not declared ephemeral.
func invalidEphemeral(v *configs.Variable, rng *hcl.Range) diags.Diagnostics {
	if rng == nil {
		rng = v.DeclRange.Ptr()
	}
	return diags.Diagnostics{{Severity: diags.Error, Summary: "Variable does not allow ephemeral value",
		Detail:  fmt.Sprintf("The value used for the variable %q is ephemeral, but it is not configured to allow one.", v.Name),
		Subject: rng}}
}

// SetModuleVariable evaluates input variable v of child module instance m
// from call's argument, in the calling instance with the call's
// count.index or each.key/each.value, and records it. Planning and apply
// both call it; the call's expansion must already be declared.
func (e *Env) SetModuleVariable(call *configs.ModuleCall, v *configs.Variable, m addrs.ModuleInstance) diags.Diagnostics {
	parent, step := m[:len(m)-1], m[len(m)-1]
	scope := e.Scope(parent)
	if exp := e.Values.ModuleCallExpansion(parent, step.Name); exp != nil {
		scope.Repetition.CountIndex, scope.Repetition.EachKey, scope.Repetition.EachValue = exp.Repetition(step.Key)
	}
	addr := addrs.AbsInputVariable{Module: m, Variable: addrs.InputVariable{Name: v.Name}}
	val, ds := e.ModuleVariable(addr, v, call.Arguments[v.Name], scope)
	e.Values.SetVariable(addr, val)
	return ds
}
