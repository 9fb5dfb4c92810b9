package configs

import (
	"fmt"
	"strings"

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
		{Name: "ephemeral"},
		{Name: "deprecated"},
		{Name: "const"},
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
	if attr, ok := attrs["deprecated"]; ok {
		s, _, ds := staticString(attr.Name, attr.Expr)
		diags = append(diags, ds...)
		v.Deprecated = s
		if !ds.HasErrors() && strings.TrimSpace(s) == "" {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid `deprecated` value",
				Detail:  `The "deprecated" argument must not be empty, and should provide instructions on how to migrate away from usage of this deprecated variable.`,
				Subject: v.NameRange.Ptr()})
		}
	}
	if attr, ok := attrs["ephemeral"]; ok {
		b, ok, ds := staticBool(attr)
		diags = append(diags, ds...)
		v.Ephemeral, v.EphemeralSet = b, ok
	}
	if attr, ok := attrs["const"]; ok {
		b, ok, ds := staticBool(attr)
		diags = append(diags, ds...)
		v.Const, v.ConstSet = b, ok
		diags = append(diags, v.checkConst(attr)...)
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

// checkConst refuses a const variable (Terraform 1.15) that is also
// sensitive or ephemeral, as Terraform does: a const value may become a
// module source, which is recorded in plain text.
func (v *Variable) checkConst(attr *hcl.Attribute) hcl.Diagnostics {
	if !v.Const {
		return nil
	}
	for _, other := range []struct {
		name string
		set  bool
	}{{"sensitive", v.Sensitive}, {"ephemeral", v.Ephemeral}} {
		if other.set {
			return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid const variable",
				Detail:  fmt.Sprintf("The variable %q cannot be both const and %s: a const value may be used where it is recorded in plain text, such as a module source.", v.Name, other.name),
				Subject: attr.Range.Ptr()}}
		}
	}
	return nil
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

// checkValidationRefs enforces the rule OpenTofu 1.9+ and Terraform 1.9+
// keep: a validation condition must test the variable itself. It may also
// refer to other variables, locals and objects of the module; such a rule
// waits in the graph for what it names (CrossRefValidations).
func checkValidationRefs(name string, cr *CheckRule) hcl.Diagnostics {
	for _, t := range cr.Condition.Variables() {
		if refersToSelf(name, t) {
			return nil
		}
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid variable validation condition",
		Detail: fmt.Sprintf("The condition for variable %q must refer to var.%s to test the value "+
			"it was given.", name, name),
		Subject: cr.Condition.Range().Ptr(),
	}}
}

// refersToSelf reports whether traversal t is var.NAME.
func refersToSelf(name string, t hcl.Traversal) bool {
	ref, ds := addrs.ParseRef(t)
	if ds.HasErrors() {
		return false
	}
	iv, ok := ref.Subject.(addrs.InputVariable)
	return ok && iv.Name == name
}

// CrossRefValidations splits the variable's validation rules into those
// whose condition and error message refer only to the variable itself,
// checked as soon as its value is known, and those that refer to other
// objects too, checked once those objects have values.
func (v *Variable) CrossRefValidations() (self, cross []*CheckRule) {
	for _, cr := range v.Validations {
		if v.onlySelf(cr.Condition) && v.onlySelf(cr.ErrorMessage) {
			self = append(self, cr)
		} else {
			cross = append(cross, cr)
		}
	}
	return self, cross
}

func (v *Variable) onlySelf(expr hcl.Expression) bool {
	if expr == nil {
		return true
	}
	for _, t := range expr.Variables() {
		if !refersToSelf(v.Name, t) {
			return false
		}
	}
	return true
}

// DeclaresEphemeral reports whether m or a module below it declares an
// ephemeral variable, output or resource, the only sources of ephemeral
// values: without one, nothing need be searched for them.
func (m *Module) DeclaresEphemeral() bool {
	found := false
	m.Walk(func(mod *Module) {
		found = found || len(mod.EphemeralResources) > 0
		for _, v := range mod.Variables {
			found = found || v.Ephemeral
		}
		for _, o := range mod.Outputs {
			found = found || o.Ephemeral
		}
	})
	return found
}
