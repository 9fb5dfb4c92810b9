package diags

import (
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// FormatPath renders an attribute path the way messages show it to users,
// as HCL-like traversal text: .a["k"][0].b. It is the one spelling of a
// path in Cairn's messages (contract errors, state encoding errors,
// conversion errors), so a path reads the same wherever it is reported.
//
// Keys follow Terraform 1.5.7's tfdiags.FormatCtyPath: a string key is
// quoted with Go escapes, a null key is [null], an unknown key is
// [(not yet known)], and a key of any other type (a set element's value,
// a bool) is [...]. A whole-number key is written in full ([12345678901]),
// not in the exponent form Terraform switches to at a million elements. A
// marked key prints as [(sensitive value)]: a set's element can be the
// secret itself. FormatPath never panics.
func FormatPath(p cty.Path) string {
	var b strings.Builder
	for _, step := range p {
		switch s := step.(type) {
		case cty.GetAttrStep:
			b.WriteByte('.')
			b.WriteString(s.Name)
		case cty.IndexStep:
			b.WriteByte('[')
			b.WriteString(keyText(s.Key))
			b.WriteByte(']')
		}
	}
	return b.String()
}

// keyText is the text of one index key inside the brackets.
func keyText(k cty.Value) string {
	switch {
	case k.IsMarked():
		return "(sensitive value)"
	case k.IsNull():
		return "null"
	case !k.IsKnown():
		return "(not yet known)"
	case k.Type() == cty.String:
		return strconv.Quote(k.AsString())
	case k.Type() == cty.Number:
		return k.AsBigFloat().Text('f', -1)
	default:
		return "..."
	}
}

// FormatError words an error for a diagnostic's detail as Terraform 1.5.7
// does (tfdiags.FormatError): a cty.PathError with a path is prefixed by
// the path (`.tags["a"]: string required`). Newer cty releases end a
// conversion error with the type found (", but have tuple"); Terraform
// 1.5.7's cty says only what was required, so that part is cut.
func FormatError(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, " required, but have "); i >= 0 {
		msg = msg[:i+len(" required")]
	}
	if pe, ok := err.(cty.PathError); ok && len(pe.Path) > 0 {
		return FormatPath(pe.Path) + ": " + msg
	}
	return msg
}
