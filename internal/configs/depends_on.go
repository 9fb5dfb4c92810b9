package configs

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/hashicorp/hcl/v2"
)

// decodeDependsOn decodes a depends_on list of references to whole objects:
// resources and data resources (or one of their instances), and also
// variables and local values, which Terraform accepts so that a value can
// carry a dependency into a configuration. References to attributes and to
// other kinds of objects are reported at the entry. Invalid entries are left
// out of the result.
func decodeDependsOn(attr *hcl.Attribute) ([]hcl.Traversal, hcl.Diagnostics) {
	exprs, diags := hcl.ExprList(attr.Expr)
	deps := make([]hcl.Traversal, 0, len(exprs))
	for _, expr := range exprs {
		t, ds := dependsOnEntry(expr)
		diags = append(diags, ds...)
		if t != nil {
			deps = append(deps, t)
		}
	}
	return deps, diags
}

func dependsOnEntry(expr hcl.Expression) (hcl.Traversal, hcl.Diagnostics) {
	if s, quoted := isQuotedString(expr); quoted {
		return nil, invalidDependsOn(expr.Range(),
			fmt.Sprintf("depends_on entries are references, not strings: remove the quotes and write %s.", s))
	}
	t, diags := absTraversalForExpr(expr)
	if diags.HasErrors() {
		return nil, diags
	}
	ref, diags := addrs.ParseRef(t)
	if diags.HasErrors() {
		return nil, diags
	}
	switch sub := ref.Subject.(type) {
	case addrs.ModuleCallOutput:
		return nil, invalidDependsOn(expr.Range(), fmt.Sprintf("depends_on refers to "+
			"whole objects, not their attributes: write %s.", sub.Call))
	case addrs.Resource, addrs.ResourceInstance, addrs.InputVariable, addrs.LocalValue, addrs.ModuleCall:
	default:
		return nil, invalidDependsOn(expr.Range(), fmt.Sprintf("%s is not an object that can be "+
			"depended on. List resources or data resources, such as aws_instance.web or data.aws_ami.x.",
			ref.Subject))
	}
	if len(ref.Remaining) > 0 {
		return nil, invalidDependsOn(ref.Remaining.SourceRange(), fmt.Sprintf("depends_on refers to "+
			"whole objects, not their attributes: write %s.", ref.Subject))
	}
	return t, nil
}

func invalidDependsOn(rng hcl.Range, detail string) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid depends_on reference",
		Detail:   detail,
		Subject:  rng.Ptr(),
	}}
}
