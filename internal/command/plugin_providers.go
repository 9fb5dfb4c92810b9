package command

import (
	"path/filepath"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/cliconfig"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/depsfile"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/localproviders"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/hashicorp/go-hclog"
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
// that is not built in, where init left it (internal/localproviders):
// from a dev_overrides directory when the CLI configuration has one for
// it (with Terraform's warning), else the package init installed for
// the locked version, whose hash must still be one the lock file
// records. Each provider configuration launches its own plugin process;
// they share one schema, asked for once per run.
func (m *Meta) addPluginProviders(reg providers.Registry, cfg *configs.Module) diags.Diagnostics {
	if len(localproviders.Needed(reg, cfg)) == 0 {
		return nil
	}
	cli, ds := m.cliConfig()
	if ds.HasErrors() {
		return ds
	}
	set := localproviders.Settings{ConfigDir: m.Dir, ProvidersDir: m.providersDir(), SchemaCacheDir: m.schemaCacheDir(), Logger: m.providerLogger()}
	if cli.ProviderInstallation != nil {
		set.DevOverrides = cli.ProviderInstallation.DevOverrides
	}
	return ds.Append(localproviders.Add(reg, cfg, set))
}

// devOverridden reports whether the CLI configuration has a dev_overrides
// directory for p; a configuration that does not load says no (the
// commands that need it report why).
func (m *Meta) devOverridden(p addrs.Provider) bool {
	cli, ds := m.cliConfig()
	return !ds.HasErrors() && cli.ProviderInstallation != nil && cli.ProviderInstallation.DevOverrides[p] != ""
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

// providerLogger is the logger of provider plugins' stderr
// (TF_LOG_PROVIDER); nil, for nothing, in a Meta made without Run.
func (m *Meta) providerLogger() hclog.Logger {
	if m.logs == nil {
		return nil
	}
	return m.logs.provider
}
