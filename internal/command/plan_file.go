package command

import (
	"os"
	"path/filepath"

	"github.com/cairn-iac/cairn/internal/diags"
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
	// The plan file is decrypted with the working directory's encryption
	// configuration, as OpenTofu does: the configuration inside the plan
	// cannot be read before it is decrypted.
	cfg, _ := m.loadConfig()
	enc, eds := m.encryptionTargets(cfg)
	if eds.HasErrors() {
		return nil, m.fail(eds)
	}
	p, err := plans.ReadEncryptedFile(src, enc.plan)
	if d, ok := encryptionDiag(err, summary); ok {
		return nil, m.fail(diags.Diagnostics{d})
	}
	if err != nil {
		return nil, m.errorf(summary, "%s: %s.", name, err)
	}
	m.notePlan(p)
	return p, 0
}
