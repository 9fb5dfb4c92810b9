package configs

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
)

var outputBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "description"},
		{Name: "value", Required: true},
		{Name: "type"},
		{Name: "sensitive"},
		{Name: "ephemeral"},
		{Name: "deprecated"},
		{Name: "depends_on"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "precondition"},
	},
}

// decodeOutputBlock decodes output "NAME" { ... }. It returns nil when the
// name is unusable or the value is missing.
func decodeOutputBlock(block *hcl.Block) (*Output, hcl.Diagnostics) {
	o, diags := decodeOutput(block, outputBlockSchema)
	if o == nil || o.Expr == nil {
		return nil, diags
	}
	return o, diags
}

// decodeOutput decodes an output block against schema; an override file
// decodes with a schema in which value is optional.
func decodeOutput(block *hcl.Block, schema *hcl.BodySchema) (*Output, hcl.Diagnostics) {
	o := &Output{Name: block.Labels[0], NameRange: block.LabelRanges[0], DeclRange: block.DefRange}
	diags := checkName(o.Name, "output name", o.NameRange)
	nameOK := !diags.HasErrors()

	content, ds := block.Body.Content(schema)
	diags = append(diags, ds...)
	if attr, ok := content.Attributes["value"]; ok {
		o.Expr = attr.Expr
	}
	if attr, ok := content.Attributes["description"]; ok {
		s, _, ds := staticString(attr.Name, attr.Expr)
		diags = append(diags, ds...)
		o.Description = s
	}
	if attr, ok := content.Attributes["type"]; ok {
		// Terraform 1.15 reads an output's type constraint as it reads a
		// variable's, optional attributes and their defaults included.
		var ds hcl.Diagnostics
		o.Type, o.TypeDefaults, _, ds = decodeVariableType(attr.Expr)
		o.TypeSet = !ds.HasErrors()
		diags = append(diags, ds...)
	}
	if attr, ok := content.Attributes["sensitive"]; ok {
		b, ok, ds := staticBool(attr)
		diags = append(diags, ds...)
		o.Sensitive, o.SensitiveSet = b, ok
	}
	if attr, ok := content.Attributes["deprecated"]; ok {
		s, _, ds := staticString(attr.Name, attr.Expr)
		diags = append(diags, ds...)
		o.Deprecated = s
		if !ds.HasErrors() && strings.TrimSpace(s) == "" {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid `deprecated` attribute",
				Detail:  `The "deprecated" argument must not be empty, and should provide instructions on how to migrate away from usage of this deprecated output value.`,
				Subject: attr.Expr.Range().Ptr()})
		}
	}
	if attr, ok := content.Attributes["ephemeral"]; ok {
		b, ok, ds := staticBool(attr)
		diags = append(diags, ds...)
		o.Ephemeral, o.EphemeralSet = b, ok
	}
	if attr, ok := content.Attributes["depends_on"]; ok {
		deps, ds := decodeDependsOn(attr)
		diags = append(diags, ds...)
		o.DependsOn = deps
	}
	for _, blk := range content.Blocks {
		cr, ds := decodeCheckRule(blk, false)
		diags = append(diags, ds...)
		if cr != nil {
			o.Preconditions = append(o.Preconditions, cr)
		}
	}
	if !nameOK {
		return nil, diags
	}
	return o, diags
}
