package render

import (
	"fmt"
	"strings"

	"github.com/cairn-iac/cairn/internal/diags"
)

// writeExprValues writes what the references in a diagnostic's expression
// were, under its source lines, as Terraform does:
//
//	├────────────────
//	│ var.x is 1
func writeExprValues(b *strings.Builder, values []diags.ExprValue, p painter) {
	if len(values) == 0 {
		return
	}
	b.WriteString(p.paint("    [dark_gray]├────────────────[reset]\n"))
	for _, v := range values {
		fmt.Fprintf(b, p.paint("    [dark_gray]│[reset] [bold]%s[reset] %s\n"), v.Traversal, v.Statement)
	}
}
