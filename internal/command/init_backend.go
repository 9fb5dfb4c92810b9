package command

import (
	"github.com/cairn-iac/cairn/internal/configs"
)

// initBackend checks that the configured backend can be reached and the
// selected workspace's state opened (creating a pg backend's schema and
// table on the way, as Terraform's init does). ok is false when init must
// stop, with the exit code.
func (m *Meta) initBackend(cfg *configs.Module, f initFlags) (int, bool) {
	b, _, _, ds := m.workspaceState(cfg)
	if ds.HasErrors() {
		return m.fail(ds), false
	}
	b.Close()
	return 0, true
}
