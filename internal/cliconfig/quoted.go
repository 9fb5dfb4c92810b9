package cliconfig

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// quotedKeys maps placeholder argument names back to the quoted keys
// they stand for.
type quotedKeys map[string]string

func (k quotedKeys) original(name string) string {
	if s, ok := k[name]; ok {
		return s
	}
	return name
}

// rewriteQuotedKeys lets native syntax carry Terraform's dev_overrides
// form, `"hashicorp/null" = "/dir"`: Terraform reads the file with HCL 1,
// which allows quoted keys, while HCL 2 allows only identifiers. Each
// quoted key inside a dev_overrides block is replaced by an identifier of
// the same length, so every source position stays right, and the
// placeholder is remembered. A key too short to hold a placeholder is
// left alone, and HCL reports it.
func rewriteQuotedKeys(src []byte, filename string) ([]byte, quotedKeys) {
	toks, _ := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	keys := quotedKeys{}
	out := append([]byte(nil), src...)
	depth := 0 // brace depth inside dev_overrides, 0 outside
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case depth == 0 && t.Type == hclsyntax.TokenIdent && string(t.Bytes) == "dev_overrides" && i+1 < len(toks) && toks[i+1].Type == hclsyntax.TokenOBrace:
			depth = 1
			i++
		case depth > 0 && t.Type == hclsyntax.TokenOBrace:
			depth++
		case depth > 0 && t.Type == hclsyntax.TokenCBrace:
			depth--
		case depth == 1 && isQuotedKey(toks, i):
			start, end := t.Range.Start.Byte, toks[i+2].Range.End.Byte
			name := placeholder(len(keys), end-start)
			if name != "" {
				keys[name] = string(toks[i+1].Bytes)
				copy(out[start:end], name)
			}
			i += 2
		}
	}
	return out, keys
}

// isQuotedKey reports whether toks[i:] is "LITERAL" = at the start of an
// item.
func isQuotedKey(toks hclsyntax.Tokens, i int) bool {
	if i+3 >= len(toks) || toks[i].Type != hclsyntax.TokenOQuote || toks[i+1].Type != hclsyntax.TokenQuotedLit ||
		toks[i+2].Type != hclsyntax.TokenCQuote || toks[i+3].Type != hclsyntax.TokenEqual {
		return false
	}
	prev := toks[i-1].Type
	return prev == hclsyntax.TokenNewline || prev == hclsyntax.TokenOBrace || prev == hclsyntax.TokenComma
}

func placeholder(n, width int) string {
	name := fmt.Sprintf("q%d", n)
	if len(name) > width {
		return ""
	}
	return name + strings.Repeat("_", width-len(name))
}
