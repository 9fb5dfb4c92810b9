package eval

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/zclconf/go-cty/cty"
)

// CheckOutputSensitivity refuses a root output whose value derives from
// sensitive data unless the output says sensitive = true, as Terraform
// does: exporting a secret must be a deliberate choice. Planning decides
// this; apply refuses the same way should a value it learns turn out
// sensitive after all. nil means the output may be recorded.
func CheckOutputSensitivity(o *configs.Output, val cty.Value) *diags.Diagnostic {
	if o.Sensitive || !val.ContainsMarked() {
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
	val, vds := e.Scope(m).EvalExpr(o.Expr, cty.DynamicPseudoType)
	ds = ds.Append(vds)
	if ds.HasErrors() {
		e.Values.SetOutput(addrs.AbsOutputValue{Module: m, Name: o.Name}, cty.DynamicVal)
		return ds
	}
	if d := CheckOutputSensitivity(o, val); d != nil {
		return ds.Append(*d)
	}
	if o.Sensitive {
		val = val.Mark(configschema.SensitiveMark)
	}
	e.Values.SetOutput(addrs.AbsOutputValue{Module: m, Name: o.Name}, val)
	return ds
}
