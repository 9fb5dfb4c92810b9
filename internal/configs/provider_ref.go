package configs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// decodeProviderConfigRef decodes a reference to a provider configuration,
// NAME or NAME.ALIAS, written as a bare reference in native syntax and as a
// string in JSON. It returns nil with diagnostics when expr is not one.
func decodeProviderConfigRef(expr hcl.Expression) (*ProviderConfigRef, hcl.Diagnostics) {
	if s, quoted := isQuotedString(expr); quoted {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid provider reference",
			Detail: fmt.Sprintf("A provider configuration is referred to by a bare name, not a string: "+
				"remove the quotes and write %s.", s),
			Subject: expr.Range().Ptr(),
		}}
	}
	traversal, diags := absTraversalForExpr(expr)
	if diags.HasErrors() || len(traversal) == 0 {
		return nil, invalidProviderRef(expr.Range())
	}
	root, ok := traversal[0].(hcl.TraverseRoot)
	if !ok {
		return nil, invalidProviderRef(expr.Range())
	}
	ref := &ProviderConfigRef{Name: root.Name, NameRange: root.SrcRange}
	if diags := checkProviderLocalName(ref.Name, ref.NameRange); diags.HasErrors() {
		return nil, diags
	}
	switch len(traversal) {
	case 1:
		return ref, nil
	case 2:
		alias, ok := traversal[1].(hcl.TraverseAttr)
		if !ok {
			return nil, invalidProviderRef(traversal[1].SourceRange())
		}
		ref.Alias = alias.Name
		ref.AliasRange = alias.SrcRange.Ptr()
		return ref, nil
	default:
		return nil, invalidProviderRef(traversal[2].SourceRange())
	}
}

func invalidProviderRef(rng hcl.Range) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid provider configuration reference",
		Detail: "A provider configuration reference is a provider name, optionally followed by a " +
			"period and an alias: aws or aws.west.",
		Subject: rng.Ptr(),
	}}
}
