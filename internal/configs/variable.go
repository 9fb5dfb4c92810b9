package configs

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

var variableBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "description"},
		{Name: "default"},
		{Name: "type"},
		{Name: "sensitive"},
		{Name: "nullable"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "validation"},
	},
}

// reservedVariableNames are the arguments of a module block: a variable
// with one of these names could not be set by a module call.
var reservedVariableNames = map[string]bool{
	"source": true, "version": true, "providers": true, "count": true,
	"for_each": true, "lifecycle": true, "depends_on": true, "locals": true,
}

// decodeVariableBlock decodes variable "NAME" { ... }. It returns nil when
// the name is unusable; the body is still checked so every problem is
// reported at once.
func decodeVariableBlock(block *hcl.Block) (*Variable, hcl.Diagnostics) {
	v := &Variable{
		Name:      block.Labels[0],
		NameRange: block.LabelRanges[0],
		DeclRange: block.DefRange,
		Type:      cty.DynamicPseudoType,
		Nullable:  true,
	}
	diags := checkName(v.Name, "variable name", v.NameRange)
	if reservedVariableNames[v.Name] {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid variable name",
			Detail: fmt.Sprintf("The name %q is reserved because module blocks use it as a "+
				"meta-argument. Choose another name.", v.Name),
			Subject: v.NameRange.Ptr(),
		})
	}
	nameOK := !diags.HasErrors()

	content, ds := block.Body.Content(variableBlockSchema)
	diags = append(diags, ds...)
	diags = append(diags, v.decodeArguments(content.Attributes)...)
	for _, blk := range content.Blocks {
		cr, ds := decodeCheckRule(blk, false)
		diags = append(diags, ds...)
		if cr != nil {
			diags = append(diags, checkValidationRefs(v.Name, cr)...)
			v.Validations = append(v.Validations, cr)
		}
	}
	if !nameOK {
		return nil, diags
	}
	return v, diags
}

// decodeArguments decodes the variable's arguments. The type and nullable
// are read before the default, which must agree with both.
func (v *Variable) decodeArguments(attrs hcl.Attributes) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if attr, ok := attrs["description"]; ok {
		s, _, ds := staticString(attr.Name, attr.Expr)
		diags = append(diags, ds...)
		v.Description, v.DescriptionSet = s, true
	}
	if attr, ok := attrs["type"]; ok {
		var ds hcl.Diagnostics
		v.Type, v.TypeDefaults, v.ParsingMode, ds = decodeVariableType(attr.Expr)
		v.TypeSet = true
		diags = append(diags, ds...)
	}
	if attr, ok := attrs["sensitive"]; ok {
		b, ok, ds := staticBool(attr)
		diags = append(diags, ds...)
		v.Sensitive, v.SensitiveSet = b, ok
	}
	if attr, ok := attrs["nullable"]; ok {
		b, ok, ds := staticBool(attr)
		diags = append(diags, ds...)
		if ok {
			v.Nullable, v.NullableSet = b, true
		}
	}
	if attr, ok := attrs["default"]; ok {
		diags = append(diags, v.decodeDefault(attr.Expr)...)
	}
	return diags
}

// decodeDefault reads the default value and converts it to the variable's
// type, after filling in the defaults of optional attributes, so a default
// that could never be valid is reported here rather than at plan time and
// later code can rely on Default having the type.
func (v *Variable) decodeDefault(expr hcl.Expression) hcl.Diagnostics {
	val, ds := staticValue(expr)
	if ds.HasErrors() {
		return ds
	}
	if v.TypeDefaults != nil && !val.IsNull() {
		val = v.TypeDefaults.Apply(val)
	}
	converted, err := convert.Convert(val, v.Type)
	if err != nil {
		return append(ds, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid default value for variable",
			Detail: fmt.Sprintf("The default value does not match the variable's type constraint: %s. "+
				"Change the default or the type.", diags.FormatError(err)),
			Subject: expr.Range().Ptr(),
		})
	}
	if !v.Nullable && converted.IsNull() {
		return append(ds, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid default value for variable",
			Detail: "A variable with nullable = false cannot default to null. Give it a non-null " +
				"default, remove the default to make it required, or allow null.",
			Subject: expr.Range().Ptr(),
		})
	}
	v.Default = converted
	return ds
}

// checkValidationRefs enforces Terraform 1.5's rule that a validation
// condition tests the variable itself, and only it: validations run when
// the variable's value arrives, before anything else is known.
func checkValidationRefs(name string, cr *CheckRule) hcl.Diagnostics {
	var diags hcl.Diagnostics
	self := 0
	for _, t := range cr.Condition.Variables() {
		ref, ds := addrs.ParseRef(t)
		if !ds.HasErrors() {
			if iv, ok := ref.Subject.(addrs.InputVariable); ok && iv.Name == name {
				self++
				continue
			}
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid reference in variable validation",
			Detail: fmt.Sprintf("The condition for variable %q can refer only to the variable itself, "+
				"as var.%s.", name, name),
			Subject: t.SourceRange().Ptr(),
		})
	}
	if self == 0 && len(diags) == 0 {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid variable validation condition",
			Detail: fmt.Sprintf("The condition for variable %q must refer to var.%s to test the value "+
				"it was given.", name, name),
			Subject: cr.Condition.Range().Ptr(),
		})
	}
	return diags
}
