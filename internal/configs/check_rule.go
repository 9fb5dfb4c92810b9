package configs

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

var checkRuleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "condition", Required: true},
		{Name: "error_message", Required: true},
	},
}

// decodeCheckRule decodes a validation, precondition or postcondition
// block. self refers to the object being checked and exists only once that
// object has its new value, so only postconditions may use it (allowSelf).
// It returns nil when the rule lacks a condition or an error message.
func decodeCheckRule(block *hcl.Block, allowSelf bool) (*CheckRule, hcl.Diagnostics) {
	content, diags := block.Body.Content(checkRuleSchema)
	cr := &CheckRule{DeclRange: block.DefRange}
	if attr, ok := content.Attributes["condition"]; ok {
		cr.Condition = attr.Expr
		diags = append(diags, checkConditionRefers(block.Type, attr.Expr)...)
	}
	if attr, ok := content.Attributes["error_message"]; ok {
		cr.ErrorMessage = attr.Expr
		diags = append(diags, checkErrorMessage(attr.Expr)...)
	}
	if cr.Condition == nil || cr.ErrorMessage == nil {
		return nil, diags
	}
	if !allowSelf {
		diags = append(diags, checkNoSelf(block.Type, cr.Condition)...)
		diags = append(diags, checkNoSelf(block.Type, cr.ErrorMessage)...)
	}
	return cr, diags
}

// checkConditionRefers reports a precondition or postcondition whose
// condition refers to nothing: its result is a constant, so it checks
// nothing, as Terraform says. Validation rules have their own, stricter
// rule (see checkValidationRefs).
func checkConditionRefers(blockType string, expr hcl.Expression) hcl.Diagnostics {
	if blockType == "validation" || len(expr.Variables()) > 0 {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Invalid %s expression", blockType),
		Detail:   "The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.",
		Subject:  expr.Range().Ptr(),
	}}
}

// checkErrorMessage reports a constant error message that is empty: the
// user would see a failed check with no explanation.
func checkErrorMessage(expr hcl.Expression) hcl.Diagnostics {
	if len(expr.Variables()) > 0 {
		return nil
	}
	v, diags := expr.Value(nil)
	if diags.HasErrors() || !v.Type().Equals(cty.String) || v.IsNull() || !v.IsKnown() {
		// Function calls and non-strings are checked when the rule is
		// evaluated, where the functions exist.
		return nil
	}
	if strings.TrimSpace(v.AsString()) != "" {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid error message",
		Detail:   "The error message must say what is wrong, so it needs at least one non-whitespace character.",
		Subject:  expr.Range().Ptr(),
	}}
}

func checkNoSelf(blockType string, expr hcl.Expression) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, t := range expr.Variables() {
		if t.RootName() != "self" {
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("Invalid reference in %s", blockType),
			Detail: fmt.Sprintf("self can be used only in postcondition blocks, where the object's new "+
				"value is known. In a %s, test the values the object's arguments are built from instead.", blockType),
			Subject: t.SourceRange().Ptr(),
		})
	}
	return diags
}
