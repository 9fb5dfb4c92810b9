package addrs

import (
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// ValidIdentifier reports whether s is an HCL identifier: what a resource
// type or name, a variable or a module call may be called, and what an
// attribute name may be written as without quotes. It is
// hclsyntax.ValidIdentifier with a fast path for the plain ASCII names
// nearly every configuration and state uses: HCL's check runs its lexer on
// every call, and large configurations and states hold tens of thousands
// of names.
func ValidIdentifier(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			return hclsyntax.ValidIdentifier(s)
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case (c >= '0' && c <= '9' || c == '-') && i > 0:
		default:
			return false
		}
	}
	return s != ""
}
