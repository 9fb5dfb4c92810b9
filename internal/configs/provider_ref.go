package configs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
)

// decodeProviderConfigRef decodes a reference to a provider configuration,
// NAME or NAME.ALIAS, written as a bare reference in native syntax and as a
// string in JSON, optionally followed by the key of one instance of a
// configuration with for_each (OpenTofu 1.9): NAME.ALIAS["us"] or
// NAME.ALIAS[each.key]. It returns nil with diagnostics when expr is not
// one.
func decodeProviderConfigRef(expr hcl.Expression) (*ProviderConfigRef, hcl.Diagnostics) {
	if hcljson.IsJSONExpression(expr) {
		// JSON spells the reference as a string holding native syntax,
		// key expression included.
		if native, ds := nativeExprFromJSON(expr); !ds.HasErrors() {
			expr = native
		}
	}
	var keyExpr hcl.Expression
	if iex, ok := expr.(*hclsyntax.IndexExpr); ok {
		keyExpr, expr = iex.Key, iex.Collection
	}
	ref, diags := decodeProviderConfigTraversal(expr, keyExpr != nil)
	if ref == nil || diags.HasErrors() {
		return nil, diags
	}
	if keyExpr != nil {
		ref.KeyExpr = keyExpr
	}
	if ref.KeyExpr != nil && ref.Alias == "" {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid provider configuration reference",
			Detail:   "Provider assignment requires an alias when specifying an instance key, in the form of provider.name[instance_key]",
			Subject:  expr.Range().Ptr(),
		}}
	}
	return ref, nil
}

// decodeProviderConfigTraversal decodes NAME, NAME.ALIAS or, unless the
// key was an expression already taken off (keyTaken),
// NAME.ALIAS[CONSTANT].
func decodeProviderConfigTraversal(expr hcl.Expression, keyTaken bool) (*ProviderConfigRef, hcl.Diagnostics) {
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
	if len(traversal) > 3 || len(traversal) > 2 && keyTaken {
		return nil, invalidProviderRef(expr.Range())
	}
	if len(traversal) > 1 {
		alias, ok := traversal[1].(hcl.TraverseAttr)
		if !ok {
			return nil, invalidProviderRef(traversal[1].SourceRange())
		}
		ref.Alias = alias.Name
		ref.AliasRange = alias.SrcRange.Ptr()
	}
	if len(traversal) > 2 {
		step, ok := traversal[2].(hcl.TraverseIndex)
		if !ok {
			return nil, invalidProviderRef(traversal[2].SourceRange())
		}
		// The key's range is the whole reference's, as in OpenTofu.
		ref.KeyExpr = hcl.StaticExpr(step.Key, traversal.SourceRange())
	}
	return ref, nil
}

func invalidProviderRef(rng hcl.Range) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid provider configuration reference",
		Detail: "A provider configuration reference is a provider name, optionally followed by a " +
			"period and an alias and then an instance key: aws, aws.west or aws.by_region[\"us\"].",
		Subject: rng.Ptr(),
	}}
}
