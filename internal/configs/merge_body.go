package configs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// mergedBody is a resource or provider body with an override file's body
// laid over it, as Terraform merges them: an argument in the override
// replaces the base's argument of that name, and nested blocks of a type
// the override writes replace every base block of that type. The result
// is decoded later against a provider schema, so the merge happens lazily
// per schema rather than once here.
type mergedBody struct {
	base, override hcl.Body
}

func overrideBody(base, override hcl.Body) hcl.Body {
	return &mergedBody{base: base, override: override}
}

func (m *mergedBody) Content(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) {
	optional := optionalSchema(schema)
	bc, diags := m.base.Content(optional)
	oc, ds := m.override.Content(optional)
	diags = append(diags, ds...)
	content := mergeContent(bc, oc)
	return content, append(diags, missingRequired(schema, content, m.MissingItemRange())...)
}

func (m *mergedBody) PartialContent(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Body, hcl.Diagnostics) {
	optional := optionalSchema(schema)
	bc, brest, diags := m.base.PartialContent(optional)
	oc, orest, ds := m.override.PartialContent(optional)
	diags = append(diags, ds...)
	content := mergeContent(bc, oc)
	diags = append(diags, missingRequired(schema, content, m.MissingItemRange())...)
	return content, overrideBody(brest, orest), diags
}

func (m *mergedBody) JustAttributes() (hcl.Attributes, hcl.Diagnostics) {
	attrs, diags := m.base.JustAttributes()
	oattrs, ds := m.override.JustAttributes()
	diags = append(diags, ds...)
	merged := make(hcl.Attributes, len(attrs)+len(oattrs))
	for k, a := range attrs {
		merged[k] = a
	}
	for k, a := range oattrs {
		merged[k] = a
	}
	return merged, diags
}

func (m *mergedBody) MissingItemRange() hcl.Range {
	return m.base.MissingItemRange()
}

// optionalSchema copies schema with every attribute optional: a required
// argument may be in either body, so it is checked after merging.
func optionalSchema(schema *hcl.BodySchema) *hcl.BodySchema {
	out := &hcl.BodySchema{Blocks: schema.Blocks}
	for _, a := range schema.Attributes {
		a.Required = false
		out.Attributes = append(out.Attributes, a)
	}
	return out
}

func mergeContent(base, override *hcl.BodyContent) *hcl.BodyContent {
	out := &hcl.BodyContent{
		Attributes:       make(hcl.Attributes, len(base.Attributes)+len(override.Attributes)),
		MissingItemRange: base.MissingItemRange,
	}
	for k, a := range base.Attributes {
		out.Attributes[k] = a
	}
	for k, a := range override.Attributes {
		out.Attributes[k] = a
	}
	replaced := make(map[string]bool)
	for _, blk := range override.Blocks {
		replaced[blk.Type] = true
	}
	for _, blk := range base.Blocks {
		if !replaced[blk.Type] {
			out.Blocks = append(out.Blocks, blk)
		}
	}
	out.Blocks = append(out.Blocks, override.Blocks...)
	return out
}

// missingRequired reports required arguments that neither body set, with
// hcl's own wording.
func missingRequired(schema *hcl.BodySchema, content *hcl.BodyContent, rng hcl.Range) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, a := range schema.Attributes {
		if _, ok := content.Attributes[a.Name]; a.Required && !ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Missing required argument",
				Detail:   fmt.Sprintf("The argument %q is required, but no definition was found.", a.Name),
				Subject:  rng.Ptr(),
			})
		}
	}
	return diags
}
