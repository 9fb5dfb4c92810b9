package localproviders

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/hashicorp/go-hclog"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/depsfile"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/getproviders"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/plugin"
	"github.com/cairn-iac/cairn/internal/providers/tfproto6"
)

// LockFileName is the dependency lock file beside the configuration.
const LockFileName = ".terraform.lock.hcl"

// Settings say where a configuration's plugin providers are.
type Settings struct {
	// ConfigDir holds the lock file. It is the working directory (after
	// -chdir), where the plugin processes run, as Terraform's do.
	ConfigDir string
	// ProvidersDir is where init installed packages
	// (.terraform/providers).
	ProvidersDir string
	// DevOverrides are the CLI configuration's dev_overrides: a
	// provider's binary directory, used as it is.
	DevOverrides map[addrs.Provider]string
	// SchemaCacheDir keeps provider schemas across runs, keyed by the
	// binary's hash; empty keeps none.
	SchemaCacheDir string
	// Logger receives the plugins' log lines (TF_LOG_PROVIDER); nil
	// discards them.
	Logger hclog.Logger
}

// Add registers in reg every provider cfg needs that reg lacks and that
// is not built in. Providers it cannot find are one error diagnostic
// naming each, as Terraform words it; a dev override is a warning.
func Add(reg providers.Registry, cfg *configs.Module, s Settings) diags.Diagnostics {
	needed := Needed(reg, cfg)
	if len(needed) == 0 {
		return nil
	}
	locks, hds := depsfile.Load(filepath.Join(s.ConfigDir, LockFileName))
	ds := diags.Diagnostics{}.Append(hds)
	if ds.HasErrors() {
		return ds
	}
	missing := map[addrs.Provider]error{}
	var overridden []string
	for _, p := range needed {
		dir, err := s.pluginDir(p, locks)
		if s.DevOverrides[p] != "" {
			overridden = append(overridden, fmt.Sprintf(" - %s in %s", p.ForDisplay(), s.DevOverrides[p]))
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
		reg[p] = Factory(p, exe, s.ConfigDir, s.SchemaCacheDir, s.Logger)
	}
	if len(overridden) > 0 {
		ds = ds.Append(devOverridesWarning(overridden))
	}
	if len(missing) > 0 {
		ds = ds.Append(getproviders.NotInstalledDiagnostic(missing))
	}
	return ds
}

// Needed lists the providers cfg (nil: none) needs that reg lacks and
// that are not built in: the ones Add looks for.
func Needed(reg providers.Registry, cfg *configs.Module) []addrs.Provider {
	if cfg == nil {
		return nil
	}
	var needed []addrs.Provider
	for _, r := range cfg.ProviderRequirements() {
		if _, ok := reg[r.Provider]; !ok && !r.Provider.IsBuiltIn() {
			needed = append(needed, r.Provider)
		}
	}
	return needed
}

// pluginDir returns the directory of p's plugin: the dev override, or
// the installed package of the locked version, checked against the lock.
func (s Settings) pluginDir(p addrs.Provider, locks *depsfile.Locks) (string, error) {
	if o := s.DevOverrides[p]; o != "" {
		return o, nil
	}
	lock := locks.Provider(p)
	if lock == nil {
		return "", fmt.Errorf("there is no package for %s cached in %s", p, s.ProvidersDir)
	}
	in := getproviders.Installer{TargetDir: s.ProvidersDir}
	inst, err := in.Installed(p, lock.Version, getproviders.CurrentPlatform(), lock.Accepts)
	if err != nil {
		return "", err
	}
	return inst.Dir, nil
}

// Factory launches the plugin binary exe for each provider instance, in
// working directory dir (the caller's when empty). The processes of one binary share its schema: asked for once per run in
// memory, and not at all while schemaDir holds it.
//
// logger receives go-plugin's lines and what the plugin writes on stderr,
// as Terraform's TF_LOG_PROVIDER logger does; nil discards them.
func Factory(p addrs.Provider, exe, dir, schemaDir string, logger hclog.Logger) providers.Factory {
	cache := &tfproto6.SchemaCache{}
	return func() (providers.Interface, error) {
		c, err := plugin.Launch(context.Background(), exe, plugin.Options{Name: p.String(), SchemaCache: cache, SchemaDir: schemaDir, Logger: logger, Dir: dir})
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
