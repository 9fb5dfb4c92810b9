package command

import (
	"bytes"
	"os"
	"path/filepath"

	"github.com/cairn-iac/cairn/internal/plans"
)

// loadPlanFile reads a saved plan named on the command line (relative to
// the working directory). On failure it prints an error with summary and
// returns a nil plan and the exit code.
func (m *Meta) loadPlanFile(name, summary string) (*plans.Plan, int) {
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(m.Dir, name)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, m.errorf(summary, "Reading %s: %s.", name, err)
	}
	p, err := plans.ReadFile(bytes.NewReader(src))
	if err != nil {
		return nil, m.errorf(summary, "%s: %s.", name, err)
	}
	m.notePlan(p)
	return p, 0
}
