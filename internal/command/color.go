package command

import (
	"io"
	"os"

	"github.com/mattn/go-isatty"
)

// colorOn reports whether text written to w may carry ANSI colour codes.
// Terraform colours whatever it writes unless told -no-color, which fills
// logs and CI artifacts with escape sequences; Cairn colours only a
// terminal. The environment conventions people already set decide the
// rest: NO_COLOR (any value) turns colour off everywhere, and
// CLICOLOR_FORCE (any value but "0") turns it on for pipes and files too.
// -no-color (m.Color false) always wins.
func (m *Meta) colorOn(w io.Writer) bool {
	if !m.Color || m.Getenv("NO_COLOR") != "" {
		return false
	}
	if v := m.Getenv("CLICOLOR_FORCE"); v != "" && v != "0" {
		return true
	}
	return m.isTerminal(w)
}

// isTerminal reports whether w is a terminal, where a line may be
// rewritten in place (a download's progress). Pipes, files and -json
// output get only whole lines.
func (m *Meta) isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}
