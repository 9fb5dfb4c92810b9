package command

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/modinstall"
)

// modulesDir is where remote module packages and modules.json go:
// .terraform/modules, or under TF_DATA_DIR.
func (m *Meta) modulesDir() string { return filepath.Join(m.dataDir(), "modules") }

// planManifestKey is where a saved plan keeps the module manifest among
// its configuration files (not a .tf name, so the loader skips it), as
// Terraform's plan file keeps modules.json beside its configuration.
const planManifestKey = ".terraform/modules/" + modinstall.ManifestFile

// installedModules reads the module manifest for the loader; without one
// only local module calls load.
func (m *Meta) installedModules() (modinstall.Manifest, diags.Diagnostics) {
	man, err := modinstall.ReadManifest(m.modulesDir())
	if err != nil {
		return nil, diags.Diagnostics{diags.Errorf("Failed to read module manifest",
			"%s. Run \"cairn init\" to install all modules required by this configuration.", err)}
	}
	return man, nil
}

// plannedModules is the manifest a saved plan was made with, or, for a
// plan without one, the one on disk.
func (m *Meta) plannedModules(files map[string][]byte) (modinstall.Manifest, diags.Diagnostics) {
	b, ok := files[planManifestKey]
	if !ok {
		return m.installedModules()
	}
	man, err := modinstall.ParseManifest(b)
	if err != nil {
		return nil, diags.Diagnostics{diags.Errorf("Invalid plan file", "The plan's module manifest: %s.", err)}
	}
	return man, nil
}

// installModules installs the modules the configuration in the working
// directory calls, as Terraform's init and get do: local modules are
// recorded where they are, remote ones fetched into .terraform/modules,
// and modules.json written as Terraform writes it. Nothing is printed
// when the root module calls no module. heading is printed first
// ("Initializing modules..."), unless empty.
func (m *Meta) installModules(root *configs.Module, upgrade bool, heading string) diags.Diagnostics {
	if len(root.ModuleCalls) == 0 {
		return nil
	}
	if heading != "" {
		fmt.Fprintf(m.Stdout, "%s\n", m.bold(heading))
	}
	prior, err := modinstall.ReadManifest(m.modulesDir())
	if err != nil {
		prior = nil // a damaged manifest is rebuilt from scratch, as Terraform's init does
	}
	modsDir := m.modulesDir()
	if rel, err := filepath.Rel(m.Dir, modsDir); err == nil && filepath.IsLocal(rel) {
		modsDir = filepath.ToSlash(rel)
	}
	inst := &modinstall.Installer{
		Root:       m.Dir,
		ModulesDir: modsDir,
		Fetcher:    modinstall.NewFetcher(),
		Hooks:      initHooks{m},
		Upgrade:    upgrade,
		Sources:    m.sources,
		Static:     m.staticModules(),
	}
	man, ds := inst.Install(context.Background(), prior)
	if ds.HasErrors() {
		return ds
	}
	if err := man.Write(m.modulesDir()); err != nil {
		return ds.Append(diags.Errorf("Failed to update module manifest", "Unable to write the module manifest file: %s", err))
	}
	return ds
}

// initHooks prints installation progress as Terraform's init does.
type initHooks struct{ m *Meta }

func (h initHooks) Download(key, pkg, version string) {
	pkg = modinstall.Redact(pkg) // a token or an s3:: secret in the address stays off the terminal
	if version != "" {
		fmt.Fprintf(h.m.Stdout, "Downloading %s %s for %s...\n", pkg, version, key)
		return
	}
	fmt.Fprintf(h.m.Stdout, "Downloading %s for %s...\n", pkg, key)
}

func (h initHooks) Install(key, _, dir string) {
	fmt.Fprintf(h.m.Stdout, "- %s in %s\n", key, dir)
}
