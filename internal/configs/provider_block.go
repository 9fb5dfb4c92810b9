package configs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// providerBlockSchema holds the arguments the engine reads from a provider
// block; everything else is the provider's own configuration. Terraform
// reserves the other names listed so that they can become meta-arguments,
// which is why no provider schema can use them.
var providerBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "alias"},
		{Name: "version"},
		{Name: "count"},
		{Name: "depends_on"},
		{Name: "for_each"},
		{Name: "source"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "lifecycle"},
		{Type: "locals"},
	},
}

// decodeProviderBlock decodes provider "NAME" { ... }. The provider's own
// arguments stay in Config, decoded later against the provider's schema.
// It returns nil when the block cannot be used.
func decodeProviderBlock(block *hcl.Block) (*Provider, hcl.Diagnostics) {
	p := &Provider{Name: block.Labels[0], NameRange: block.LabelRanges[0], DeclRange: block.DefRange}
	diags := checkProviderLocalName(p.Name, p.NameRange)
	if diags.HasErrors() {
		return nil, diags
	}
	content, config, ds := block.Body.PartialContent(providerBlockSchema)
	diags = append(diags, ds...)
	p.Config = config

	if attr, ok := content.Attributes["alias"]; ok {
		alias, ok, ds := staticString("alias", attr.Expr)
		diags = append(diags, ds...)
		if !ok {
			return nil, diags
		}
		if ds := checkName(alias, "provider configuration alias", attr.Expr.Range()); ds.HasErrors() {
			return nil, append(diags, ds...)
		}
		p.Alias = alias
		p.AliasRange = attr.Expr.Range().Ptr()
	}
	if attr, ok := content.Attributes["version"]; ok {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Version constraints inside provider configuration blocks are deprecated",
			Detail: fmt.Sprintf("Cairn ignores this version argument. Declare the constraint in "+
				"terraform { required_providers { %s = { version = ... } } } instead.", p.Name),
			Subject: attr.NameRange.Ptr(),
		})
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		p.ForEach = attr.Expr
		if p.Alias == "" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  `Alias required when using "for_each"`,
				Detail:   `The for_each argument is allowed only for provider configurations with an alias.`,
				Subject:  attr.Expr.Range().Ptr(),
			})
		}
	}
	for _, name := range []string{"count", "depends_on", "source"} {
		if attr, ok := content.Attributes[name]; ok {
			diags = append(diags, reservedInProvider("argument name", name, attr.NameRange))
		}
	}
	for _, blk := range content.Blocks {
		diags = append(diags, reservedInProvider("block type name", blk.Type, blk.TypeRange))
	}
	return p, diags
}

func reservedInProvider(what, name string, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Reserved %s in provider block", what),
		Detail: fmt.Sprintf("%q is reserved for a future version of the Terraform language and cannot "+
			"be used in a provider block. Remove it.", name),
		Subject: rng.Ptr(),
	}
}
