package configs

import (
	"github.com/cairn-iac/cairn/internal/hclscan"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
)

// The JSON syntax has no way to write a bare reference or a type
// expression, so arguments that take one (provider, depends_on,
// ignore_changes, replace_triggered_by, a variable's type) take a string
// holding native syntax instead. The functions here parse such strings
// from the column after the opening quote, so ranges in diagnostics point
// into the string where the problem is.

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
	src := []byte(v.AsString())
	if d := hclscan.CheckDepth(src, expr.Range().Filename, start, hclscan.Native); d != nil {
		return expr, append(diags, d)
	}
	native, pdiags := hclsyntax.ParseExpression(src, expr.Range().Filename, start)
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
