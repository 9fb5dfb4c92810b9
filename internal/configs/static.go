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

// nativeExprFromJSON reinterprets a JSON string as a native-syntax
// expression, the way the JSON syntax spells arguments that take
// expressions rather than values (type constraints, replace_triggered_by).
// Other expressions are returned unchanged.
func nativeExprFromJSON(expr hcl.Expression) (hcl.Expression, hcl.Diagnostics) {
	if !hcljson.IsJSONExpression(expr) {
		return expr, nil
	}
	v, diags := staticValue(expr)
	if diags.HasErrors() {
		return expr, diags
	}
	if !v.Type().Equals(cty.String) || v.IsNull() || !v.IsKnown() {
		return expr, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid expression string",
			Detail:   "In JSON syntax this argument must be a string containing an expression in native syntax, such as \"list(string)\" or \"aws_instance.a.id\".",
			Subject:  expr.Range().Ptr(),
		}}
	}
	// The expression starts after the opening quote. Escape sequences
	// inside the string can shift later columns; that only blurs ranges.
	start := expr.Range().Start
	start.Column++
	start.Byte++
	native, pdiags := hclsyntax.ParseExpression([]byte(v.AsString()), expr.Range().Filename, start)
	return native, append(diags, pdiags...)
}

// absTraversalForExpr is hcl.AbsTraversalForExpr, except that a JSON string
// is parsed from the position after its opening quote, so ranges inside it
// point at the right column.
func absTraversalForExpr(expr hcl.Expression) (hcl.Traversal, hcl.Diagnostics) {
	if !hcljson.IsJSONExpression(expr) {
		return hcl.AbsTraversalForExpr(expr)
	}
	v, diags := expr.Value(nil)
	if diags.HasErrors() || !v.Type().Equals(cty.String) || v.IsNull() || !v.IsKnown() {
		return hcl.AbsTraversalForExpr(expr)
	}
	start := expr.Range().Start
	start.Column++
	start.Byte++
	t, diags := hclsyntax.ParseTraversalAbs([]byte(v.AsString()), expr.Range().Filename, start)
	if diags.HasErrors() {
		return hcl.AbsTraversalForExpr(expr)
	}
	return t, nil
}

// relTraversalForExpr is absTraversalForExpr for a traversal relative to
// an object, such as an ignore_changes entry: its first step is an
// attribute rather than a root.
func relTraversalForExpr(expr hcl.Expression) (hcl.Traversal, hcl.Diagnostics) {
	t, diags := absTraversalForExpr(expr)
	if diags.HasErrors() || len(t) == 0 {
		return nil, diags
	}
	rel := make(hcl.Traversal, len(t))
	copy(rel, t)
	if root, ok := t[0].(hcl.TraverseRoot); ok {
		rel[0] = hcl.TraverseAttr{Name: root.Name, SrcRange: root.SrcRange}
	}
	return rel, diags
}
