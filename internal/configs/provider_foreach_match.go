package configs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// providerForEachMatches warns, as OpenTofu 1.12 does, when a resource or
// module call that selects provider instances by key iterates over the
// same expression as the provider configuration: removing an element then
// removes the provider instance in the same run as the objects it must
// destroy, and the plan fails. Expressions without references never
// match; the comparison is of syntax, best effort.
func providerForEachMatches(blockType, target string, source, instances hcl.Expression) hcl.Diagnostics {
	if source == nil || instances == nil || len(source.Variables()) == 0 || len(instances.Variables()) == 0 {
		return nil
	}
	if !sameSyntax(source, instances) {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagWarning,
		Summary:  "Provider configuration for_each matches " + blockType,
		Detail: fmt.Sprintf("This provider configuration uses the same for_each expression as a %s, which means that subsequent removal of elements from this collection would cause a planning error.\n\n"+
			"Cairn relies on a provider instance to destroy resource instances that are associated with it, and so the provider instance must outlive all of its resource instances by at least one plan/apply round. "+
			"For removal of instances to succeed in future you must structure the configuration so that the provider block's for_each expression can produce a superset of the instances of the resources associated with the provider configuration. "+
			"Refer to the documentation for specific suggestions.\n\n"+
			"To destroy this object before removing the provider configuration, consider first performing a targeted destroy:\n    cairn apply -destroy %s", blockType, target),
		Subject: source.Range().Ptr(),
	}}
}

// sameSyntax reports whether two expressions are written the same way,
// ignoring parentheses and spacing. Kinds of expression it does not know
// are never the same.
func sameSyntax(a, b hcl.Expression) bool {
	if p, ok := a.(*hclsyntax.ParenthesesExpr); ok {
		return sameSyntax(p.Expression, b)
	}
	if p, ok := b.(*hclsyntax.ParenthesesExpr); ok {
		return sameSyntax(a, p.Expression)
	}
	switch a := a.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		b, ok := b.(*hclsyntax.ScopeTraversalExpr)
		return ok && sameTraversal(a.Traversal, b.Traversal)
	case *hclsyntax.RelativeTraversalExpr:
		b, ok := b.(*hclsyntax.RelativeTraversalExpr)
		return ok && sameTraversal(a.Traversal, b.Traversal) && sameSyntax(a.Source, b.Source)
	case *hclsyntax.LiteralValueExpr:
		b, ok := b.(*hclsyntax.LiteralValueExpr)
		return ok && a.Val.RawEquals(b.Val)
	case *hclsyntax.FunctionCallExpr:
		b, ok := b.(*hclsyntax.FunctionCallExpr)
		return ok && a.Name == b.Name && sameList(a.Args, b.Args)
	case *hclsyntax.IndexExpr:
		b, ok := b.(*hclsyntax.IndexExpr)
		return ok && sameSyntax(a.Collection, b.Collection) && sameSyntax(a.Key, b.Key)
	case *hclsyntax.TupleConsExpr:
		b, ok := b.(*hclsyntax.TupleConsExpr)
		return ok && sameList(a.Exprs, b.Exprs)
	case *hclsyntax.TemplateExpr:
		b, ok := b.(*hclsyntax.TemplateExpr)
		return ok && sameList(a.Parts, b.Parts)
	case *hclsyntax.ConditionalExpr:
		b, ok := b.(*hclsyntax.ConditionalExpr)
		return ok && sameSyntax(a.Condition, b.Condition) && sameSyntax(a.TrueResult, b.TrueResult) && sameSyntax(a.FalseResult, b.FalseResult)
	}
	return false
}

func sameList(a, b []hclsyntax.Expression) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameSyntax(a[i], b[i]) {
			return false
		}
	}
	return true
}

// sameTraversal compares the names and constant keys of two traversals.
func sameTraversal(a, b hcl.Traversal) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		switch as := a[i].(type) {
		case hcl.TraverseRoot:
			bs, ok := b[i].(hcl.TraverseRoot)
			if !ok || as.Name != bs.Name {
				return false
			}
		case hcl.TraverseAttr:
			bs, ok := b[i].(hcl.TraverseAttr)
			if !ok || as.Name != bs.Name {
				return false
			}
		case hcl.TraverseIndex:
			bs, ok := b[i].(hcl.TraverseIndex)
			if !ok || !as.Key.RawEquals(bs.Key) {
				return false
			}
		default:
			return false
		}
	}
	return true
}
