package configs

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/hashicorp/hcl/v2"
)

// managedResourceSchema holds the meta-arguments of a resource block.
// Everything else in the body is the resource type's own configuration and
// stays in Resource.Config, nested and dynamic blocks included.
var managedResourceSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "count"},
		{Name: "for_each"},
		{Name: "provider"},
		{Name: "depends_on"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "lifecycle"},
		{Type: "provisioner", LabelNames: []string{"type"}},
		{Type: "connection"},
	},
}

// dataResourceSchema holds the meta-arguments of a data block.
var dataResourceSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "count"},
		{Name: "for_each"},
		{Name: "provider"},
		{Name: "depends_on"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "lifecycle"},
	},
}

// decodeResourceBlock decodes a resource or data block. It returns nil when
// the type or name label is unusable; the body is still checked.
func decodeResourceBlock(block *hcl.Block, mode addrs.ResourceMode) (*Resource, hcl.Diagnostics) {
	r := &Resource{
		Mode:      mode,
		Type:      block.Labels[0],
		Name:      block.Labels[1],
		DeclRange: block.DefRange,
		TypeRange: block.LabelRanges[0],
		NameRange: block.LabelRanges[1],
	}
	schema, what := managedResourceSchema, "resource"
	switch mode {
	case addrs.ManagedResourceMode:
		r.Managed = &ManagedResource{}
	case addrs.EphemeralResourceMode:
		// The managed schema, so that provisioner and connection blocks
		// get OpenTofu's error for ephemeral resources rather than
		// "unsupported block type".
		what = "ephemeral resource"
	default:
		schema, what = dataResourceSchema, "data source"
	}
	diags := checkName(r.Type, what+" type name", r.TypeRange)
	diags = append(diags, checkName(r.Name, what+" name", r.NameRange)...)
	labelsOK := !diags.HasErrors()

	content, config, ds := block.Body.PartialContent(schema)
	diags = append(diags, ds...)
	r.Config = config
	diags = append(diags, r.decodeMetaArguments(content.Attributes)...)
	diags = append(diags, r.decodeMetaBlocks(content.Blocks)...)
	if !labelsOK {
		return nil, diags
	}
	return r, diags
}

// decodeMetaArguments decodes count, for_each, provider and depends_on.
func (r *Resource) decodeMetaArguments(attrs hcl.Attributes) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if attr, ok := attrs["count"]; ok {
		r.Count = attr.Expr
	}
	if attr, ok := attrs["for_each"]; ok {
		if r.Count != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  `Invalid combination of "count" and "for_each"`,
				Detail: "count and for_each both say how many instances to create, so only one of them " +
					"may be set. Remove one.",
				Subject: attr.NameRange.Ptr(),
			})
		} else {
			r.ForEach = attr.Expr
		}
	}
	if attr, ok := attrs["provider"]; ok {
		ref, ds := decodeProviderConfigRef(attr.Expr)
		diags = append(diags, ds...)
		r.ProviderConfigRef = ref
	}
	if attr, ok := attrs["depends_on"]; ok {
		deps, ds := decodeDependsOn(attr)
		diags = append(diags, ds...)
		r.DependsOn = deps
	}
	return diags
}

// decodeMetaBlocks decodes lifecycle blocks and refuses provisioners, which
// Cairn does not run; a connection block only configures provisioners, so
// without them it has no effect and is dropped.
func (r *Resource) decodeMetaBlocks(blocks hcl.Blocks) hcl.Diagnostics {
	var diags hcl.Diagnostics
	var lifecycle *hcl.Block
	for _, blk := range blocks {
		switch blk.Type {
		case "lifecycle":
			if lifecycle != nil {
				diags = append(diags, duplicateDiag("Duplicate lifecycle block", "A lifecycle block",
					"Merge the settings into one lifecycle block.", lifecycle.DefRange, blk.TypeRange))
				continue
			}
			lifecycle = blk
			diags = append(diags, r.decodeLifecycle(blk)...)
		case "provisioner", "connection":
			if r.Mode == addrs.EphemeralResourceMode {
				diags = append(diags, notForEphemeral("Invalid configuration block for ephemeral resource", "block type", blk.Type, blk.DefRange))
				continue
			}
			if blk.Type == "connection" {
				continue
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported block type",
				Detail: fmt.Sprintf("Cairn does not support provisioners yet, so the %q provisioner would "+
					"never run. Remove the block, or use Terraform for this configuration.", blk.Labels[0]),
				Subject: blk.TypeRange.Ptr(),
			})
		}
	}
	return diags
}

// notForEphemeral is OpenTofu's error for a block or lifecycle argument
// that only resource blocks may have, written in an ephemeral block.
func notForEphemeral(summary, what, name string, subject hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   fmt.Sprintf("The %s %q cannot be used in ephemeral resources. This is meant to be used strictly in \"resource\" blocks.", what, name),
		Subject:  subject.Ptr(),
	}
}
