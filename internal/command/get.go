package command

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/configs"
)

// runGet implements "cairn get": install the modules the configuration
// calls, as "terraform get" does; -update fetches every remote module
// again (the newest registry versions allowed).
func runGet(m *Meta, args []string) int {
	fs := newFlagSet("get", m.Stderr)
	noColorFlag(fs, m)
	update := fs.Bool("update", false, "Check already-downloaded modules for available updates and install the newest versions available.")
	if !m.parseFlags(fs, args) {
		return 1
	}
	if fs.NArg() > 0 {
		return m.errorf("Too many command line arguments", "Expected no positional arguments; change into the configuration's directory with -chdir.")
	}
	if code, ok := m.getModules(*update, ""); !ok {
		return code
	}
	return 0
}

// initModules is init's module step: "Initializing modules..." (or
// "Upgrading modules..." with -upgrade), the installs, a blank line.
func (m *Meta) initModules(upgrade bool) (int, bool) {
	heading := "Initializing modules..."
	if upgrade {
		heading = "Upgrading modules..."
	}
	code, ok := m.getModules(upgrade, heading)
	return code, ok
}

// getModules loads the root module alone (its calls are not installed
// yet) and installs what it calls; ok is false when it failed, with the
// exit code to return.
func (m *Meta) getModules(upgrade bool, heading string) (int, bool) {
	root, ds := configs.LoadModuleDir(m.Dir, ".")
	if ds.HasErrors() {
		m.sources = mergeSources(m.sources, root)
		return m.fail(ds), false
	}
	m.sources = mergeSources(m.sources, root)
	mds := m.installModules(root, upgrade, heading)
	if mds.HasErrors() {
		return m.fail(ds.Append(mds)), false
	}
	if heading != "" && len(root.ModuleCalls) > 0 {
		fmt.Fprintln(m.Stdout)
	}
	m.showDiags(ds.Append(mds))
	return 0, true
}

// mergeSources adds a module's files to those diagnostics can quote.
func mergeSources(into map[string][]byte, mod *configs.Module) map[string][]byte {
	if mod == nil {
		return into
	}
	if into == nil {
		into = map[string][]byte{}
	}
	for k, v := range mod.Sources {
		into[k] = v
	}
	return into
}
