package configs

import "github.com/hashicorp/hcl/v2"

// decodeLocalsBlock decodes a locals block into its local values, in the
// order they are written. A module may have several locals blocks; names
// must be unique across all of them, which the caller checks.
func decodeLocalsBlock(block *hcl.Block) ([]*Local, hcl.Diagnostics) {
	attrs, diags := block.Body.JustAttributes()
	locals := make([]*Local, 0, len(attrs))
	for _, attr := range attrsInSourceOrder(attrs) {
		if ds := checkName(attr.Name, "local value name", attr.NameRange); ds.HasErrors() {
			diags = append(diags, ds...)
			continue
		}
		locals = append(locals, &Local{
			Name:      attr.Name,
			Expr:      attr.Expr,
			DeclRange: attr.Range,
			NameRange: attr.NameRange,
		})
	}
	return locals, diags
}
