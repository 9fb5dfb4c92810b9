package configs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/zclconf/go-cty/cty"
)

// VariableParsingMode says how a variable's value given as a plain string
// (a -var option or a TF_VAR_ environment variable) is read. Terraform reads
// the string as it is for primitive types, so -var='name=hello' needs no
// extra quotes, and as an HCL expression for the rest, so lists and
// objects can be written.
type VariableParsingMode byte

const (
	// VariableParseLiteral uses the string itself as the value. It is the
	// zero value, and the mode of variables without a type.
	VariableParseLiteral VariableParsingMode = 0
	// VariableParseHCL parses the string as an HCL expression.
	VariableParseHCL VariableParsingMode = 'H'
)

// decodeVariableType reads a variable's type argument. In JSON the type is
// a string holding a type expression in native syntax, so it is parsed as
// one. The bare keywords list and map, which Terraform 0.11 used, still mean
// list(any) and map(any) as they do in Terraform.
func decodeVariableType(expr hcl.Expression) (cty.Type, *typeexpr.Defaults, VariableParsingMode, hcl.Diagnostics) {
	if s, quoted := isQuotedString(expr); quoted {
		return cty.DynamicPseudoType, nil, VariableParseHCL, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid quoted type constraints",
			Detail:   fmt.Sprintf("Type constraints are written without quotes: remove the quotes and write type = %s.", s),
			Subject:  expr.Range().Ptr(),
		}}
	}
	expr, diags := nativeExprFromJSON(expr)
	if diags.HasErrors() {
		return cty.DynamicPseudoType, nil, VariableParseHCL, diags
	}
	switch hcl.ExprAsKeyword(expr) {
	case "list":
		return cty.List(cty.DynamicPseudoType), nil, VariableParseHCL, diags
	case "map":
		return cty.Map(cty.DynamicPseudoType), nil, VariableParseHCL, diags
	}
	ty, defaults, ds := typeexpr.TypeConstraintWithDefaults(expr)
	diags = append(diags, ds...)
	if ds.HasErrors() {
		return cty.DynamicPseudoType, nil, VariableParseHCL, diags
	}
	if ty.IsPrimitiveType() {
		return ty, defaults, VariableParseLiteral, diags
	}
	return ty, defaults, VariableParseHCL, diags
}
