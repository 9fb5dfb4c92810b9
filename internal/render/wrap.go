package render

import (
	"strings"

	"github.com/mitchellh/go-wordwrap"
)

// wordWrap wraps prose to fit width columns as Terraform does: each line
// is wrapped on its own, and a line that starts with a space (code, a
// command to run) is left alone.
func wordWrap(s string, width int) string {
	if width <= 1 {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, " ") {
			lines[i] = wordwrap.WrapString(l, uint(width-1))
		}
	}
	return strings.Join(lines, "\n")
}

// HorizontalRule returns the rule Terraform draws between sections, one
// column narrower than width (zero means the default), preceded by a
// newline and without a trailing one.
func HorizontalRule(opts Options) string {
	width := opts.width()
	if width <= 1 {
		return "\n"
	}
	return opts.painter().paint("[dark_gray]\n" + strings.Repeat("─", width-1))
}
