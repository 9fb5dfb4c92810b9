package render

import "github.com/cairn-iac/cairn/internal/marks"

// Options say how text is printed.
type Options struct {
	// Color adds Terraform's ANSI colours and bold text. Without it the
	// output holds no escape sequences at all, as with -no-color.
	Color bool
	// Width is the column at which prose (legends, notes, diagnostic
	// details) is word-wrapped. Zero means 78, the width Terraform assumes
	// when its output is not a terminal: what scripts and logs see.
	Width int
	// Secrets are the secrets the run knows of beyond what is rendered
	// (see secrets.go): a string that reveals one is shown as sensitive.
	// nil holds none.
	Secrets *marks.Known
}

// defaultWidth is Terraform's column count when stdout is not a terminal.
const defaultWidth = 78

func (o Options) width() int {
	if o.Width <= 0 {
		return defaultWidth
	}
	return o.Width
}

func (o Options) painter() painter { return painter{on: o.Color} }
