package configs

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/hashicorp/hcl/v2"
)

// Check is a check "NAME" block: assertions about the infrastructure
// whose failures are warnings, never errors, so they report problems
// without blocking a plan or an apply. A check may declare one scoped data
// resource, read only to feed its assertions; its failures are warnings too.
type Check struct {
	Name string
	// DataResource is the scoped data resource, nil when the block has
	// none. It is also in Module.DataResources (names are shared with the
	// module's other data resources), with Check set to this block's name.
	DataResource *Resource
	// Asserts are the assert blocks, in source order; at least one.
	Asserts   []*CheckRule
	DeclRange hcl.Range
	NameRange hcl.Range
}

var checkBlockSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "data", LabelNames: []string{"type", "name"}},
		{Type: "assert"},
	},
}

// decodeCheckBlock decodes check "NAME" { ... }. It returns nil when the
// name is unusable; a check without a valid assert block is reported and
// still returned, so later declarations of the name are reported too.
func decodeCheckBlock(block *hcl.Block) (*Check, hcl.Diagnostics) {
	c := &Check{Name: block.Labels[0], NameRange: block.LabelRanges[0], DeclRange: block.DefRange}
	diags := checkName(c.Name, "check block name", c.NameRange)
	nameOK := !diags.HasErrors()
	content, ds := block.Body.Content(checkBlockSchema)
	diags = append(diags, ds...)
	for _, blk := range content.Blocks {
		switch blk.Type {
		case "data":
			diags = append(diags, c.decodeScopedData(blk)...)
		case "assert":
			// Only a valid assert counts: an assert Terraform rejects does
			// not stop it also reporting "Zero assert blocks".
			cr, ds := decodeCheckRule(blk, false)
			diags = append(diags, ds...)
			if cr != nil && !ds.HasErrors() {
				c.Asserts = append(c.Asserts, cr)
			}
		}
	}
	if len(c.Asserts) == 0 {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Zero assert blocks",
			Detail:   "Check blocks must have at least one assert block.",
			Subject:  c.DeclRange.Ptr(),
		})
	}
	if !nameOK {
		return nil, diags
	}
	return c, diags
}

// decodeScopedData decodes the check's data block. Terraform reads a
// scoped data resource exactly once per check, under the check's control,
// so count, for_each and lifecycle (whose conditions would be errors, not
// warnings) are refused.
func (c *Check) decodeScopedData(block *hcl.Block) hcl.Diagnostics {
	if c.DataResource != nil {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Multiple data resource blocks",
			Detail:   fmt.Sprintf("This check block already has a data resource defined at %s.", posString(c.DataResource.DeclRange)),
			Subject:  block.DefRange.Ptr(),
		}}
	}
	meta, _, _ := block.Body.PartialContent(dataResourceSchema)
	var diags hcl.Diagnostics
	for _, attr := range attrsInSourceOrder(meta.Attributes) {
		if attr.Name == "count" || attr.Name == "for_each" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("Invalid %q attribute", attr.Name),
				Detail:   `The "count" and "for_each" meta-arguments are not supported within nested data blocks.`,
				Subject:  attr.NameRange.Ptr(),
			})
		}
	}
	for _, blk := range meta.Blocks {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid lifecycle block",
			Detail:   `Nested data blocks do not support "lifecycle" blocks as the lifecycle is managed by the containing block.`,
			Subject:  blk.TypeRange.Ptr(),
		})
	}
	r, ds := decodeResourceBlock(block, addrs.DataResourceMode)
	diags = append(diags, ds...)
	if r == nil || diags.HasErrors() {
		return diags
	}
	r.Check = c.Name
	c.DataResource = r
	return diags
}

// addCheck records a check block. Override files cannot change checks, as
// in Terraform, so one found there is refused rather than merged.
func (b *moduleBuilder) addCheck(c *Check) {
	if b.overriding {
		b.report(hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Can't override check blocks",
			Detail:   "Override files cannot override check blocks.",
			Subject:  c.DeclRange.Ptr(),
		}})
		return
	}
	if prev, ok := b.mod.Checks[c.Name]; ok {
		b.report(hcl.Diagnostics{duplicateDiag(fmt.Sprintf("Duplicate check %q configuration", c.Name),
			fmt.Sprintf("A check block named %q", c.Name), "Check blocks must be unique within each module.",
			prev.DeclRange, c.DeclRange)})
		return
	}
	b.mod.Checks[c.Name] = c
	if c.DataResource != nil {
		b.addResource(c.DataResource)
	}
}
