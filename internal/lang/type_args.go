package lang

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// typeKeywords are the type constraint keywords that hcl's variable walk
// reports as traversals when they appear as a bare name, as in
// convert(x, list(string)).
var typeKeywords = map[string]bool{"string": true, "number": true, "bool": true, "any": true}

// withoutTypeArgs drops from traversals those inside the type argument of
// a convert call (Terraform 1.15) in node: they are a type expression,
// which the function reads itself, not references. It walks node only
// when a traversal is a bare type keyword, so expressions without
// convert cost one look at each traversal's root.
func withoutTypeArgs(node any, traversals []hcl.Traversal) []hcl.Traversal {
	maybe := false
	for _, t := range traversals {
		if len(t) == 1 && typeKeywords[t.RootName()] {
			maybe = true
			break
		}
	}
	n, ok := node.(hclsyntax.Node)
	if !maybe || !ok {
		return traversals
	}
	var typeArgs []hcl.Range
	hclsyntax.VisitAll(n, func(n hclsyntax.Node) hcl.Diagnostics {
		if call, ok := n.(*hclsyntax.FunctionCallExpr); ok && len(call.Args) == 2 &&
			strings.TrimPrefix(call.Name, "core::") == "convert" {
			typeArgs = append(typeArgs, call.Args[1].Range())
		}
		return nil
	})
	if len(typeArgs) == 0 {
		return traversals
	}
	out := traversals[:0:0]
	for _, t := range traversals {
		if !inAny(t.SourceRange(), typeArgs) {
			out = append(out, t)
		}
	}
	return out
}

func inAny(r hcl.Range, outer []hcl.Range) bool {
	for _, o := range outer {
		if r.Filename == o.Filename && r.Start.Byte >= o.Start.Byte && r.End.Byte <= o.End.Byte {
			return true
		}
	}
	return false
}
