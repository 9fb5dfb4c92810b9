package command

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/cliconfig"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/depsfile"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/getproviders"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/plugin"
	"github.com/cairn-iac/cairn/internal/providers/tfproto6"
)

// lockFileName is the dependency lock file beside the configuration.
const lockFileName = ".terraform.lock.hcl"

// cliConfig reads the CLI configuration as Terraform does
// (TF_CLI_CONFIG_FILE, ~/.terraformrc, ~/.terraform.d/*.tfrc).
func (m *Meta) cliConfig() (*cliconfig.Config, diags.Diagnostics) {
	cfg, hds := cliconfig.Load(m.cliEnv())
	return cfg, diags.Diagnostics{}.Append(hds)
}

func (m *Meta) cliEnv() cliconfig.Env {
	return cliconfig.Env{Getenv: m.Getenv, HomeDir: m.Getenv("HOME")}
}

// providersDir is where init installs provider packages:
// .terraform/providers.
func (m *Meta) providersDir() string { return filepath.Join(m.dataDir(), "providers") }

// loadLocks reads the dependency lock file; a missing file is empty.
func (m *Meta) loadLocks() (*depsfile.Locks, diags.Diagnostics) {
	l, hds := depsfile.Load(filepath.Join(m.Dir, lockFileName))
	return l, diags.Diagnostics{}.Append(hds)
}

// addPluginProviders registers every provider the configuration needs
// that is not built in: from a dev_overrides directory when the CLI
// configuration has one for it (with Terraform's warning), else the
// package init installed for the locked version, whose hash must still
// be one the lock file records. Each provider configuration launches its
// own plugin process; they share one schema, asked for once per run.
func (m *Meta) addPluginProviders(reg providers.Registry, cfg *configs.Module) diags.Diagnostics {
	if cfg == nil {
		return nil
	}
	var needed []addrs.Provider
	for _, r := range cfg.ProviderRequirements() {
		if _, ok := reg[r.Provider]; !ok && !r.Provider.IsBuiltIn() {
			needed = append(needed, r.Provider)
		}
	}
	if len(needed) == 0 {
		return nil
	}
	cli, ds := m.cliConfig()
	locks, lds := m.loadLocks()
	ds = ds.Append(lds)
	if ds.HasErrors() {
		return ds
	}
	var overrides map[addrs.Provider]string
	if cli.ProviderInstallation != nil {
		overrides = cli.ProviderInstallation.DevOverrides
	}
	missing := map[addrs.Provider]error{}
	var overridden []string
	for _, p := range needed {
		dir, err := m.pluginDir(p, overrides[p], locks)
		if overrides[p] != "" {
			overridden = append(overridden, fmt.Sprintf(" - %s in %s", p.ForDisplay(), overrides[p]))
		}
		if err != nil {
			missing[p] = err
			continue
		}
		exe, err := getproviders.ExecutableFile(p, dir)
		if err != nil {
			missing[p] = err
			continue
		}
		reg[p] = pluginFactory(p, exe, m.schemaCacheDir())
	}
	if len(overridden) > 0 {
		ds = ds.Append(devOverridesWarning(overridden))
	}
	if len(missing) > 0 {
		ds = ds.Append(getproviders.NotInstalledDiagnostic(missing))
	}
	return ds
}

// pluginDir returns the directory of p's plugin: the dev override, or
// the installed package of the locked version, checked against the lock.
func (m *Meta) pluginDir(p addrs.Provider, override string, locks *depsfile.Locks) (string, error) {
	if override != "" {
		return override, nil
	}
	lock := locks.Provider(p)
	if lock == nil {
		return "", fmt.Errorf("there is no package for %s cached in %s", p, m.providersDir())
	}
	in := getproviders.Installer{TargetDir: m.providersDir()}
	inst, err := in.Installed(p, lock.Version, getproviders.CurrentPlatform(), lock.Accepts)
	if err != nil {
		return "", err
	}
	return inst.Dir, nil
}

// schemaCacheDir is where provider schemas are kept across runs, keyed by
// the binary's hash: CAIRN_SCHEMA_CACHE_DIR ("off" for none), else
// cairn/provider-schemas in the user's cache directory (XDG_CACHE_HOME or
// ~/.cache). Without a home there is none.
func (m *Meta) schemaCacheDir() string {
	switch d := m.Getenv("CAIRN_SCHEMA_CACHE_DIR"); {
	case d == "off":
		return ""
	case d != "":
		return d
	}
	if d := m.Getenv("XDG_CACHE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "cairn", "provider-schemas")
	}
	if h := m.Getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".cache", "cairn", "provider-schemas")
	}
	return ""
}

// pluginFactory launches the plugin binary for each provider instance.
// The processes of one binary share its schema: asked for once per run in
// memory, and not at all while schemaDir holds it.
func pluginFactory(p addrs.Provider, exe, schemaDir string) providers.Factory {
	cache := &tfproto6.SchemaCache{}
	return func() (providers.Interface, error) {
		c, err := plugin.Launch(context.Background(), exe, plugin.Options{Name: p.String(), SchemaCache: cache, SchemaDir: schemaDir})
		if err != nil {
			return nil, err
		}
		return c, nil
	}
}

// devOverridesWarning is Terraform's warning while dev_overrides apply.
func devOverridesWarning(lines []string) diags.Diagnostic {
	detail := "The following provider development overrides are set in the CLI configuration:\n"
	for _, l := range lines {
		detail += l + "\n"
	}
	detail += "\nThe behavior may therefore not match any released version of the provider and applying changes may cause the state to become incompatible with published releases."
	return diags.Diagnostic{Severity: diags.Warning, Summary: "Provider development overrides are in effect", Detail: detail}
}
