package awscc

import (
	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/providers"
)

// annotate adds to the engine's copy of the provider schema what the plugin
// protocol cannot carry (see tfproto6.WithSchemaAnnotation):
//
//   - write-only properties, and attributes whose element type holds one,
//     are Masked: awscc declares nothing Sensitive, and neither does the
//     schema served here, so awscc's configurations run unchanged; Cairn's
//     human output, Pulumi adapter and Crossplane kinds still keep them
//     secret;
//   - tags_all is a Copy of the tags attribute and of the provider's
//     default_tags: it holds both, so a sensitive tag value, configured on
//     the resource or as a default tag, is sensitive in tags_all too, in
//     state and in the JSON documents. tags_all is Cairn's own attribute,
//     so no Terraform behaviour is there to keep.
func (p *Provider) annotate(resp *providers.GetProviderSchemaResponse) {
	for _, t := range p.servedTypes() {
		if s, ok := resp.ResourceTypes[t.TerraformName]; ok && s.Block != nil {
			markMasked(t, s.Block)
			markTwinsMasked(t, s.Block)
			if sh, ok := tagShapeOf(t); ok {
				s.Block.Copies = append(s.Block.Copies, configschema.Copy{From: sh.attr.Name, To: tagsAllName, FromProvider: "default_tags"})
			}
		}
		if s, ok := resp.DataSources[t.TerraformName]; ok && s.Block != nil {
			markMasked(t, s.Block)
		}
	}
}

// markMasked sets Masked on the attributes of block that the type's
// translation masks.
func markMasked(t *cfnschema.ResourceType, block *configschema.Block) {
	t.Walk(func(a *cfnschema.Attribute) {
		if !a.Masked {
			return
		}
		if ca := attributeAt(block, a.Path); ca != nil {
			ca.Masked = true
		}
	})
}

// attributeAt returns the attribute of block at a translation path
// (names, "*" for any element), or nil when there is none: members of
// element types have no attribute of their own.
func attributeAt(block *configschema.Block, path cfnschema.Path) *configschema.Attribute {
	attrs := block.Attributes
	var a *configschema.Attribute
	for _, step := range path {
		if step == "*" {
			continue
		}
		if a = attrs[step]; a == nil {
			return nil
		}
		attrs = nil
		if a.NestedType != nil {
			attrs = a.NestedType.Attributes
		}
	}
	return a
}
