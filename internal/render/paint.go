package render

import "strings"

// painter expands the colour tags used in this package's text templates
// ([bold], [red], [reset], ...). Terraform colours its text the same way,
// and its colouring appends a reset after every template that held a tag;
// painter does too, so coloured output matches Terraform byte for byte.
// With colour off, tags vanish and nothing is added.
//
// Only constant templates are painted; user text (addresses, values) is
// inserted around painted pieces, so a value that happens to look like a tag
// is never mistaken for one.
type painter struct{ on bool }

// sgr holds the select-graphic-rendition codes of the tags templates use.
var sgr = map[string]string{
	"reset":     "0",
	"bold":      "1",
	"underline": "4",
	"red":       "31",
	"green":     "32",
	"yellow":    "33",
	"cyan":      "36",
	"dark_gray": "90",
}

// paint returns tmpl with its tags expanded.
func (p painter) paint(tmpl string) string {
	if strings.IndexByte(tmpl, '[') < 0 {
		return tmpl
	}
	var b strings.Builder
	b.Grow(len(tmpl) + 16)
	tagged := false
	for {
		open := strings.IndexByte(tmpl, '[')
		if open < 0 {
			break
		}
		end := strings.IndexByte(tmpl[open:], ']')
		if end < 0 {
			break
		}
		code, ok := sgr[tmpl[open+1:open+end]]
		if !ok {
			b.WriteString(tmpl[:open+1])
			tmpl = tmpl[open+1:]
			continue
		}
		tagged = true
		b.WriteString(tmpl[:open])
		if p.on {
			b.WriteString("\x1b[")
			b.WriteString(code)
			b.WriteByte('m')
		}
		tmpl = tmpl[open+end+1:]
	}
	b.WriteString(tmpl)
	if tagged && p.on {
		b.WriteString("\x1b[0m")
	}
	return b.String()
}
