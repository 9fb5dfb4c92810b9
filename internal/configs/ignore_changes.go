package configs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// decodeIgnoreChanges decodes ignore_changes: the keyword all (or the
// string "all", as JSON must spell it), or a list of attribute paths
// relative to the resource, such as tags or tags["Name"].
func decodeIgnoreChanges(expr hcl.Expression) ([]hcl.Traversal, bool, hcl.Diagnostics) {
	if hcl.ExprAsKeyword(expr) == "all" {
		return nil, true, nil
	}
	if s, quoted := isQuotedString(expr); quoted && s == "all" {
		return nil, true, nil
	}
	exprs, diags := hcl.ExprList(expr)
	if diags.HasErrors() {
		return nil, false, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid ignore_changes value",
			Detail:   "ignore_changes is either the keyword all or a list of attribute names, such as [tags, ami].",
			Subject:  expr.Range().Ptr(),
		}}
	}
	paths := make([]hcl.Traversal, 0, len(exprs))
	for _, e := range exprs {
		t, ds := ignoreChangesEntry(e)
		diags = append(diags, ds...)
		if t != nil {
			paths = append(paths, t)
		}
	}
	return paths, false, diags
}

func ignoreChangesEntry(expr hcl.Expression) (hcl.Traversal, hcl.Diagnostics) {
	if s, ok := stringLiteral(expr); ok && s == "*" {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid ignore_changes wildcard",
			Detail:   "The [\"*\"] form is no longer valid: write ignore_changes = all to ignore changes to every attribute.",
			Subject:  expr.Range().Ptr(),
		}}
	}
	if s, quoted := isQuotedString(expr); quoted {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid ignore_changes reference",
			Detail:   fmt.Sprintf("ignore_changes entries are attribute names, not strings: remove the quotes and write %s.", s),
			Subject:  expr.Range().Ptr(),
		}}
	}
	t, diags := relTraversalForExpr(expr)
	if diags.HasErrors() {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid ignore_changes reference",
			Detail: "Each ignore_changes entry must be an attribute of this resource, optionally followed " +
				"by attribute names and constant indexes, such as tags or tags[\"Name\"].",
			Subject: expr.Range().Ptr(),
		}}
	}
	return t, nil
}
