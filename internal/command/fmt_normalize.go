package command

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
)

// formatSource returns src in canonical style: hclwrite's layout, plus the
// rewrites of pre-0.12 forms Terraform 1.5.7's fmt makes, so both tools
// produce the same bytes. The caller has checked that src parses; if it
// does not, src is returned unchanged.
func formatSource(src []byte, filename string) []byte {
	f, ds := hclwrite.ParseConfig(src, filename, hcl.InitialPos)
	if ds.HasErrors() {
		return src
	}
	normalizeBody(f.Body(), false, true)
	return f.Bytes()
}

// normalizeBody rewrites legacy forms in a body and its nested blocks.
// inVariable is set for the body of a top-level variable block, whose type
// argument is a type expression rather than a value; top is set for the
// file's body.
func normalizeBody(body *hclwrite.Body, inVariable, top bool) {
	for name, attr := range body.Attributes() {
		tokens := attr.Expr().BuildTokens(nil)
		if inVariable && name == "type" {
			body.SetAttributeRaw(name, normalizeTypeExpr(tokens))
			continue
		}
		body.SetAttributeRaw(name, unwrapInterpolation(tokens))
	}
	for _, block := range body.Blocks() {
		// Rewriting the labels drops comments between them and turns
		// bare labels into quoted ones.
		block.SetLabels(block.Labels())
		// Only a top-level variable block has a type expression; nested
		// blocks named "variable" (inside a resource, say) do not.
		normalizeBody(block.Body(), top && block.Type() == "variable", false)
	}
}

// unwrapInterpolation turns "${expr}", a template that is nothing but one
// interpolation, into expr, as 0.12 made the wrapping unnecessary. A
// multi-line expr is parenthesised so it still parses as one expression.
// Anything else is returned unchanged.
func unwrapInterpolation(tokens hclwrite.Tokens) hclwrite.Tokens {
	n := len(tokens)
	if n < 5 || tokens[0].Type != hclsyntax.TokenOQuote || tokens[1].Type != hclsyntax.TokenTemplateInterp ||
		tokens[n-2].Type != hclsyntax.TokenTemplateSeqEnd || tokens[n-1].Type != hclsyntax.TokenCQuote {
		return tokens
	}
	inner := tokens[2 : n-2]
	if !singleInterpolation(inner) {
		return tokens
	}
	inner = trimNewlineTokens(inner)
	multiLine := false
	for _, t := range inner {
		if t.Type == hclsyntax.TokenNewline {
			multiLine = true
		}
	}
	parenthesised := len(inner) > 0 && inner[0].Type == hclsyntax.TokenOParen && inner[len(inner)-1].Type == hclsyntax.TokenCParen
	if !multiLine || parenthesised {
		return inner
	}
	out := hclwrite.Tokens{{Type: hclsyntax.TokenOParen, Bytes: []byte("(")}}
	out = append(out, inner...)
	return append(out, &hclwrite.Token{Type: hclsyntax.TokenCParen, Bytes: []byte(")")})
}

// singleInterpolation reports whether the tokens between "${" and the
// final "}" of a template are one expression: no literal text and no
// further interpolation at the template's own level (quoted strings
// nested inside the expression may hold either). It can say no to some
// templates that could be unwrapped; never yes to one that cannot.
func singleInterpolation(inner hclwrite.Tokens) bool {
	depth := 0
	for _, t := range inner {
		switch {
		case t.Type == hclsyntax.TokenOQuote:
			depth++
		case t.Type == hclsyntax.TokenCQuote:
			depth--
		case depth > 0:
		case t.Type == hclsyntax.TokenTemplateInterp, t.Type == hclsyntax.TokenTemplateSeqEnd, t.Type == hclsyntax.TokenQuotedLit:
			return false
		}
	}
	return true
}

// trimNewlineTokens drops newlines at both ends, which would otherwise
// break the unwrapped expression across lines.
func trimNewlineTokens(tokens hclwrite.Tokens) hclwrite.Tokens {
	start, end := 0, len(tokens)
	for start < end && tokens[start].Type == hclsyntax.TokenNewline {
		start++
	}
	for end > start && tokens[end-1].Type == hclsyntax.TokenNewline {
		end--
	}
	return tokens[start:end]
}

// normalizeTypeExpr rewrites a variable's legacy type: a bare collection
// keyword (list, map, set) gains its element type any; a 0.11 quoted type
// ("string", "list", "map") becomes the keyword, with string elements for
// collections because 0.11 converted their elements to strings.
func normalizeTypeExpr(tokens hclwrite.Tokens) hclwrite.Tokens {
	switch {
	case len(tokens) == 1 && tokens[0].Type == hclsyntax.TokenIdent:
		switch kw := string(tokens[0].Bytes); kw {
		case "list", "map", "set":
			return typeTokens(kw, "any")
		}
	case len(tokens) == 3 && tokens[0].Type == hclsyntax.TokenOQuote &&
		tokens[1].Type == hclsyntax.TokenQuotedLit && tokens[2].Type == hclsyntax.TokenCQuote:
		switch kw := string(tokens[1].Bytes); kw {
		case "string":
			return typeTokens(kw, "")
		case "list", "map":
			return typeTokens(kw, "string")
		}
	}
	return tokens
}

// typeTokens builds kw, or kw(elem) when elem is not empty.
func typeTokens(kw, elem string) hclwrite.Tokens {
	out := hclwrite.Tokens{{Type: hclsyntax.TokenIdent, Bytes: []byte(kw)}}
	if elem == "" {
		return out
	}
	return append(out,
		&hclwrite.Token{Type: hclsyntax.TokenOParen, Bytes: []byte("(")},
		&hclwrite.Token{Type: hclsyntax.TokenIdent, Bytes: []byte(elem)},
		&hclwrite.Token{Type: hclsyntax.TokenCParen, Bytes: []byte(")")},
	)
}
