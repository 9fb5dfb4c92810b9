package eval

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/lang/typeconv"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/zclconf/go-cty/cty"
)

// CheckOutputSensitivity refuses a root output whose value derives from
// sensitive data unless the output says sensitive = true, as Terraform
// does: exporting a secret must be a deliberate choice. Planning decides
// this; apply refuses the same way should a value it learns turn out
// sensitive after all. nil means the output may be recorded.
func CheckOutputSensitivity(o *configs.Output, val cty.Value) *diags.Diagnostic {
	if o.Sensitive || !val.ContainsMarked() || !containsSensitive(val) {
		return nil
	}
	return &diags.Diagnostic{
		Severity: diags.Error,
		Summary:  "Output refers to sensitive values",
		Detail: "To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, Cairn requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.\n\n" +
			"If you do intend to export this data, annotate the output value as sensitive by adding the following argument:\n    sensitive = true",
		Subject: o.Expr.Range().Ptr(),
	}
}

// containsSensitive reports whether a marked value has a sensitive part
// (its marks may all be ephemeral).
func containsSensitive(val cty.Value) bool {
	_, pvm := val.UnmarkDeepWithPaths()
	for _, pm := range pvm {
		if pm.Marks.Has(marks.Sensitive) {
			return true
		}
	}
	return false
}

// CheckOutputEphemerality applies Terraform 1.10's and OpenTofu 1.11's
// rules for ephemeral outputs: only a child module's output may be
// declared ephemeral, and only such an output may carry an ephemeral
// value (one derived from an ephemeral variable or output). nil means the
// output may be recorded.
func CheckOutputEphemerality(o *configs.Output, root bool, val cty.Value) *diags.Diagnostic {
	if o.Ephemeral && root {
		return &diags.Diagnostic{Severity: diags.Error, Summary: "Invalid output configuration",
			Detail: "Root modules are not allowed to have outputs defined as ephemeral", Subject: o.DeclRange.Ptr()}
	}
	if o.Ephemeral || !val.ContainsMarked() || !marks.IsEphemeral(val) {
		return nil
	}
	return &diags.Diagnostic{Severity: diags.Error, Summary: "Output does not allow ephemeral value",
		Detail:  "The value that was generated for the output is ephemeral, but it is not configured to allow one.",
		Subject: o.Expr.Range().Ptr()}
}

// CheckOutputStorable refuses a root output whose value the state could
// not hold (an infinite number, see lang.UnstorableNumber), located at its
// expression. Planning and apply both check, as for sensitivity. nil means
// the output may be recorded.
func CheckOutputStorable(o *configs.Output, val cty.Value) *diags.Diagnostic {
	d := lang.UnstorableNumber(marks.Strip(val))
	if d == nil {
		return nil
	}
	d.Subject, d.Path = o.Expr.Range().Ptr(), nil
	return d
}

// EvalChildOutput evaluates an output of child module instance m and
// records it for the module's caller. Its preconditions and the
// sensitivity rule are those of a root output; a sensitive output's value
// reaches the caller marked sensitive. Planning and apply both call it.
func (e *Env) EvalChildOutput(o *configs.Output, m addrs.ModuleInstance) diags.Diagnostics {
	if e.ChildOutput != nil {
		addr := addrs.AbsOutputValue{Module: m, Name: o.Name}
		if val, ok := e.ChildOutput(addr); ok {
			e.Values.SetOutput(addr, val)
			return nil
		}
	}
	ds := e.CheckOutput(o, m)
	if ds.HasErrors() {
		return ds
	}
	val, vds := e.EvalOutputValue(o, m)
	ds = ds.Append(vds)
	if ds.HasErrors() {
		e.Values.SetOutput(addrs.AbsOutputValue{Module: m, Name: o.Name}, cty.DynamicVal)
		return ds
	}
	if d := CheckOutputEphemerality(o, false, val); d != nil {
		return ds.Append(*d)
	}
	if d := CheckOutputSensitivity(o, val); d != nil {
		return ds.Append(*d)
	}
	if o.Sensitive {
		val = val.Mark(configschema.SensitiveMark)
	}
	if o.Ephemeral {
		val = val.Mark(marks.Ephemeral)
	}
	e.Values.SetOutput(addrs.AbsOutputValue{Module: m, Name: o.Name}, val)
	return ds
}

// EvalOutputValue evaluates output o of module instance m and converts
// the value to the output's type constraint (Terraform 1.15), applying the
// defaults of optional object attributes first, as a variable's value is
// converted. What planning, apply and module callers see is the converted
// value; one that cannot be converted is Terraform's error at the value
// expression. Marks survive the conversion.
func (e *Env) EvalOutputValue(o *configs.Output, m addrs.ModuleInstance) (cty.Value, diags.Diagnostics) {
	val, ds := e.Scope(m).EvalExpr(o.Expr, cty.DynamicPseudoType)
	if ds.HasErrors() || !o.TypeSet {
		return val, ds
	}
	conv, d := ConvertOutputValue(o, val)
	if d != nil {
		return cty.DynamicVal, ds.Append(*d)
	}
	return conv, ds
}

// ConvertOutputValue converts val to o's type constraint; nil diagnostic
// means it converted. o must have a type (TypeSet).
func ConvertOutputValue(o *configs.Output, val cty.Value) (cty.Value, *diags.Diagnostic) {
	unmarked, pvm := val.UnmarkDeepWithPaths()
	if o.TypeDefaults != nil && !unmarked.IsNull() {
		unmarked = o.TypeDefaults.Apply(unmarked)
	}
	conv, err := typeconv.Convert(unmarked, o.Type)
	if err != nil {
		return cty.NilVal, &diags.Diagnostic{Severity: diags.Error, Summary: "Invalid output value",
			Detail:  fmt.Sprintf("The value expression does not match this output value's type constraint: %s.", diags.FormatError(err)),
			Subject: o.Expr.Range().Ptr()}
	}
	return conv.MarkWithPaths(pvm), nil
}
