package configs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// staticValue evaluates expr with no variables and no functions, because
// loading happens before anything exists to refer to. hcl reports a
// reference or a function call as an error at its own range.
func staticValue(expr hcl.Expression) (cty.Value, hcl.Diagnostics) {
	v, diags := expr.Value(nil)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	return v, diags
}

// staticString decodes the expression of an argument called name that must
// be a literal string, such as a description or a version constraint. ok is
// false when a diagnostic was reported.
func staticString(name string, expr hcl.Expression) (s string, ok bool, diags hcl.Diagnostics) {
	v, diags := staticValue(expr)
	if diags.HasErrors() {
		return "", false, diags
	}
	v, err := convert.Convert(v, cty.String)
	if err != nil || v.IsNull() || !v.IsWhollyKnown() {
		return "", false, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("Invalid value for %q", name),
			Detail:   fmt.Sprintf("The %q argument must be a literal string, such as %s = \"...\".", name, name),
			Subject:  expr.Range().Ptr(),
		})
	}
	return v.AsString(), true, diags
}

// staticBool decodes an argument that must be a literal true or false.
// Arguments such as sensitive and prevent_destroy shape how the engine
// handles an object before any expression can be evaluated, so they cannot
// depend on variables.
func staticBool(attr *hcl.Attribute) (b bool, ok bool, diags hcl.Diagnostics) {
	v, diags := staticValue(attr.Expr)
	if !diags.HasErrors() {
		var err error
		v, err = convert.Convert(v, cty.Bool)
		if err == nil && !v.IsNull() && v.IsWhollyKnown() {
			return v.True(), true, diags
		}
	}
	return false, false, hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Invalid value for %q", attr.Name),
		Detail: fmt.Sprintf("The %q argument must be the literal value true or false; it is read before "+
			"any variable or resource is known, so it cannot refer to them.", attr.Name),
		Subject: attr.Expr.Range().Ptr(),
	}}
}

// isQuotedString reports whether expr is a native-syntax string literal
// ("..."): older Terraform versions accepted quoted references and type
// names, so a quoted value where a bare one belongs gets its own hint.
func isQuotedString(expr hcl.Expression) (string, bool) {
	tmpl, ok := expr.(*hclsyntax.TemplateExpr)
	if !ok || !tmpl.IsStringLiteral() {
		return "", false
	}
	v, diags := tmpl.Value(nil)
	if diags.HasErrors() || !v.Type().Equals(cty.String) || v.IsNull() {
		return "", false
	}
	return v.AsString(), true
}

// stringLiteral returns the value of a constant string in either syntax:
// a native "..." without interpolation, or any JSON string.
func stringLiteral(expr hcl.Expression) (string, bool) {
	if s, ok := isQuotedString(expr); ok {
		return s, true
	}
	if !hcljson.IsJSONExpression(expr) {
		return "", false
	}
	v, diags := expr.Value(nil)
	if diags.HasErrors() || !v.Type().Equals(cty.String) || v.IsNull() || !v.IsKnown() {
		return "", false
	}
	return v.AsString(), true
}
