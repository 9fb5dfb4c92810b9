package addrs

import (
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// parseTraversal parses s as an absolute traversal, exactly as
// hclsyntax.ParseTraversalAbs does with no file name and the initial
// position. Plain text — ASCII names, dots, and indexes holding a decimal
// integer or a quoted string HCL reads verbatim — is scanned by hand:
// state files and plan files hold many thousands of such addresses, and
// HCL's scanner segments every byte into grapheme clusters before its
// parser runs. Anything else, including every malformed input, goes to
// HCL, so what is accepted and every diagnostic stay HCL's.
func parseTraversal(s string) (hcl.Traversal, hcl.Diagnostics) {
	if t, ok := scanPlainTraversal(s); ok {
		return t, nil
	}
	return hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.InitialPos)
}

// scanPlainTraversal returns the traversal HCL would parse from s, source
// ranges included, when s is plain text as parseTraversal describes; it
// returns false for anything else, without saying why.
func scanPlainTraversal(s string) (hcl.Traversal, bool) {
	n := identEnd(s, 0)
	if n == 0 {
		return nil, false
	}
	t := make(hcl.Traversal, 1, 1+countSteps(s))
	t[0] = hcl.TraverseRoot{Name: s[:n], SrcRange: byteRange(0, n)}
	for i := n; i < len(s); {
		switch s[i] {
		case '.':
			end := identEnd(s, i+1)
			if end == i+1 {
				return nil, false
			}
			t = append(t, hcl.TraverseAttr{Name: s[i+1 : end], SrcRange: byteRange(i, end)})
			i = end
		case '[':
			key, end, ok := scanPlainKey(s, i+1)
			if !ok {
				return nil, false
			}
			t = append(t, hcl.TraverseIndex{Key: key, SrcRange: byteRange(i, end)})
			i = end
		default:
			return nil, false
		}
	}
	return t, true
}

// scanPlainKey scans an index key starting at s[i] (just after the open
// bracket) through the closing bracket, returning the key and the offset
// after the bracket. Integers are decimal without a leading zero and at
// most nine digits, so they fit an int and HCL's number parser would read
// the same value; strings are printable ASCII without quotes, backslashes
// or template introducers, which HCL takes as written.
func scanPlainKey(s string, i int) (cty.Value, int, bool) {
	if i >= len(s) {
		return cty.NilVal, 0, false
	}
	if s[i] == '"' {
		j := i + 1
		for j < len(s) && plainStringByte(s[j]) {
			j++
		}
		if j+1 >= len(s) || s[j] != '"' || s[j+1] != ']' {
			return cty.NilVal, 0, false
		}
		return cty.StringVal(s[i+1 : j]), j + 2, true
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	digits := s[i:j]
	if digits == "" || len(digits) > 9 || (digits[0] == '0' && len(digits) > 1) || j >= len(s) || s[j] != ']' {
		return cty.NilVal, 0, false
	}
	v, _ := strconv.Atoi(digits)
	return cty.NumberIntVal(int64(v)), j + 1, true
}

// identEnd returns the offset just past the ASCII identifier starting at
// s[i], or i when none starts there (or it runs into a byte outside
// ASCII, which HCL's Unicode rules must judge).
func identEnd(s string, i int) int {
	j := i
	for ; j < len(s); j++ {
		c := s[j]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case (c >= '0' && c <= '9' || c == '-') && j > i:
		case c >= 0x80:
			return i
		default:
			return j
		}
	}
	return j
}

// plainStringByte reports whether c stands for itself in an HCL quoted
// string.
func plainStringByte(c byte) bool {
	return c >= 0x20 && c <= 0x7e && c != '"' && c != '\\' && c != '$' && c != '%'
}

// countSteps is an upper bound on the steps after the first in a plain
// traversal: one per dot or open bracket.
func countSteps(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '.' || s[i] == '[' {
			n++
		}
	}
	return n
}

// byteRange is the range of s[start:end] on the first line of a file with
// no name, where a byte is a column because the text is ASCII.
func byteRange(start, end int) hcl.Range {
	return hcl.Range{
		Start: hcl.Pos{Line: 1, Column: start + 1, Byte: start},
		End:   hcl.Pos{Line: 1, Column: end + 1, Byte: end},
	}
}
