package configs

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/hashicorp/hcl/v2"
)

var lifecycleBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "create_before_destroy"},
		{Name: "prevent_destroy"},
		{Name: "ignore_changes"},
		{Name: "replace_triggered_by"},
		{Name: "enabled"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "precondition"},
		{Type: "postcondition"},
	},
}

// decodeLifecycle decodes a lifecycle block into r. Data resources have no
// lifecycle of their own (they are read, never created or destroyed), so
// for them only preconditions and postconditions are accepted.
func (r *Resource) decodeLifecycle(block *hcl.Block) hcl.Diagnostics {
	content, diags := block.Body.Content(lifecycleBlockSchema)
	if attr, ok := content.Attributes["enabled"]; ok {
		diags = append(diags, r.decodeEnabled(attr)...)
		delete(content.Attributes, "enabled")
	}
	switch {
	case r.Managed != nil:
		diags = append(diags, r.Managed.decodeArguments(content.Attributes)...)
	case r.Mode == addrs.EphemeralResourceMode:
		for _, attr := range attrsInSourceOrder(content.Attributes) {
			diags = append(diags, notForEphemeral("Invalid lifecycle configuration for ephemeral resource", "lifecycle argument", attr.Name, block.TypeRange))
		}
	default:
		for _, attr := range attrsInSourceOrder(content.Attributes) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid data resource lifecycle argument",
				Detail: fmt.Sprintf("The lifecycle argument %q applies only to managed resources "+
					"(resource blocks); data resources accept only precondition and postcondition. "+
					"Remove it.", attr.Name),
				Subject: attr.NameRange.Ptr(),
			})
		}
	}
	for _, blk := range content.Blocks {
		cr, ds := decodeCheckRule(blk, blk.Type == "postcondition")
		diags = append(diags, ds...)
		if cr == nil {
			continue
		}
		if blk.Type == "precondition" {
			r.Preconditions = append(r.Preconditions, cr)
		} else {
			r.Postconditions = append(r.Postconditions, cr)
		}
	}
	return diags
}

// decodeArguments decodes the lifecycle arguments of a managed resource.
func (m *ManagedResource) decodeArguments(attrs hcl.Attributes) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if attr, ok := attrs["create_before_destroy"]; ok {
		b, ok, ds := staticBool(attr)
		diags = append(diags, ds...)
		m.CreateBeforeDestroy, m.CreateBeforeDestroySet = b, ok
	}
	if attr, ok := attrs["prevent_destroy"]; ok {
		if len(attr.Expr.Variables()) > 0 {
			// OpenTofu 1.12: decided per plan from variables and locals.
			m.PreventDestroyExpr, m.PreventDestroySet = attr.Expr, true
		} else {
			b, ok, ds := staticBool(attr)
			diags = append(diags, ds...)
			m.PreventDestroy, m.PreventDestroySet = b, ok
		}
	}
	if attr, ok := attrs["ignore_changes"]; ok {
		paths, all, ds := decodeIgnoreChanges(attr.Expr)
		diags = append(diags, ds...)
		m.IgnoreChanges, m.IgnoreAllChanges = paths, all
	}
	if attr, ok := attrs["replace_triggered_by"]; ok {
		exprs, ds := decodeReplaceTriggeredBy(attr.Expr)
		diags = append(diags, ds...)
		m.ReplaceTriggeredBy = exprs
	}
	return diags
}

// decodeEnabled decodes lifecycle.enabled (OpenTofu 1.11), which says
// whether the resource has its one instance, so it cannot go with count
// or for_each.
func (r *Resource) decodeEnabled(attr *hcl.Attribute) hcl.Diagnostics {
	if r.Count != nil || r.ForEach != nil {
		what := "resources"
		if r.Managed == nil {
			what = "data sources"
		}
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  `Invalid combination of "count", "enabled", and "for_each"`,
			Detail:   `The "count", "enabled", and "for_each" meta-arguments are mutually-exclusive. Only one may be used to be explicit about the number of ` + what + ` to be created.`,
			Subject:  attr.NameRange.Ptr(),
		}}
	}
	r.Enabled = attr.Expr
	return nil
}
