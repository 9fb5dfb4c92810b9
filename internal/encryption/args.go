package encryption

import (
	"fmt"
	"sort"

	"github.com/cairn-iac/cairn/internal/didyoumean"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// NoValue marks the value of an input variable that has none (unset: an
// unknown value; or null) in the evaluation context given to Decode. The
// mark follows the value through locals and functions, so an argument
// that cannot be evaluated for want of it (passphrase = local.p, where
// p = var.pass) names the variable to set, however indirectly it reads
// it.
type NoValue struct{ Variable string }

// evalArg evaluates an argument and converts it to want. The value is
// never quoted in a diagnostic: it may be a passphrase.
func evalArg(a *hcl.Attribute, sc *scope, want cty.Type, what string) (cty.Value, bool, hcl.Diagnostics) {
	if diags := undeclaredRefs(a.Expr, sc); diags.HasErrors() {
		return cty.NilVal, false, diags
	}
	v, diags := a.Expr.Value(sc.ctx)
	if diags.HasErrors() {
		return cty.NilVal, false, diags
	}
	v, marks := v.UnmarkDeep()
	if sc.lenient && !v.IsWhollyKnown() {
		return cty.NilVal, false, diags
	}
	cv, err := convert.Convert(v, want)
	if err == nil && !cv.IsNull() && cv.IsWhollyKnown() {
		return cv, true, diags
	}
	if name, ok := firstNoValue(marks); ok {
		return cty.NilVal, false, append(diags, noValueDiag(a, name, v.IsNull()))
	}
	return cty.NilVal, false, append(diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Invalid value for %q", a.Name),
		Detail:   fmt.Sprintf("The %q argument must be %s known before anything is planned (a literal, a variable or a local).", a.Name, what),
		Subject:  a.Expr.Range().Ptr(),
	})
}

// firstNoValue is the first, by name, of the variables marks say have no
// value.
func firstNoValue(marks cty.ValueMarks) (string, bool) {
	var names []string
	for m := range marks {
		if nv, ok := m.(NoValue); ok {
			names = append(names, nv.Variable)
		}
	}
	if len(names) == 0 {
		return "", false
	}
	sort.Strings(names)
	return names[0], true
}

// noValueDiag names the variable an argument needs a value of: the one
// thing to fix. It points at the variable's reference when the argument
// makes one, and at the whole expression when the variable is reached
// through a local.
func noValueDiag(a *hcl.Attribute, name string, null bool) *hcl.Diagnostic {
	rng := a.Expr.Range()
	for _, trav := range a.Expr.Variables() {
		if attr, ok := varStep(trav); ok && attr == name {
			rng = trav.SourceRange()
			break
		}
	}
	state := "has no value"
	if null {
		state = "is null"
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "No value for required variable",
		Detail: fmt.Sprintf("The %q argument takes its value from var.%s, which %s: set it with a -var or -var-file option, in a terraform.tfvars file, or with the TF_VAR_%s environment variable.",
			a.Name, name, state, name),
		Subject: rng.Ptr(),
	}
}

// undeclaredRefs reports references to input variables and local values
// the module does not declare, in Terraform's words, rather than hcl's
// "Unsupported attribute" on the var or local object.
func undeclaredRefs(expr hcl.Expression, sc *scope) hcl.Diagnostics {
	if sc.ctx == nil {
		return nil
	}
	var diags hcl.Diagnostics
	for _, trav := range expr.Variables() {
		root := trav.RootName()
		obj, ok := sc.ctx.Variables[root]
		if !ok || (root != "var" && root != "local") || len(trav) < 2 || !obj.Type().IsObjectType() {
			continue
		}
		step, ok := trav[1].(hcl.TraverseAttr)
		if !ok || obj.Type().HasAttribute(step.Name) {
			continue
		}
		d := &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Reference to undeclared input variable",
			Detail:   fmt.Sprintf("An input variable with the name %q has not been declared. This variable can be declared with a variable %q {} block.", step.Name, step.Name),
			Subject:  trav.SourceRange().Ptr(),
		}
		if root == "local" {
			d.Summary = "Reference to undeclared local value"
			d.Detail = fmt.Sprintf("A local value with the name %q has not been declared.", step.Name)
			names := make([]string, 0, len(obj.Type().AttributeTypes()))
			for n := range obj.Type().AttributeTypes() {
				names = append(names, n)
			}
			sort.Strings(names)
			if s := didyoumean.NameSuggestion(step.Name, names); s != "" {
				d.Detail += fmt.Sprintf(" Did you mean %q?", s)
			}
		}
		diags = append(diags, d)
	}
	return diags
}

// varStep is the variable name of a var.NAME traversal.
func varStep(trav hcl.Traversal) (string, bool) {
	if trav.RootName() != "var" || len(trav) < 2 {
		return "", false
	}
	attr, ok := trav[1].(hcl.TraverseAttr)
	if !ok {
		return "", false
	}
	return attr.Name, true
}
