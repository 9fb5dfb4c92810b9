package modulerun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/builtin"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/localproviders"
	"github.com/cairn-iac/cairn/internal/modinstall"
	"github.com/cairn-iac/cairn/internal/providers"
)

// Source names a module as a module block's source and version
// arguments do.
type Source struct {
	// Source is a local path ("./net", "../modules/net", "/abs/path"),
	// or a registry, git or HTTP address.
	Source string
	// Version constrains a registry source; empty for every other kind.
	Version string
}

// IsLocal reports whether s is a local directory, as Terraform tells
// them apart: a path beginning "./", "../" or "/".
func (s Source) IsLocal() bool {
	return strings.HasPrefix(s.Source, "./") || strings.HasPrefix(s.Source, "../") ||
		s.Source == "." || s.Source == ".." || filepath.IsAbs(s.Source)
}

// Resolver fetches a non-local module source and returns the directory
// it was unpacked into. It is the seam for the engine's module installer
// (registry, git, HTTP); errors are for the user.
type Resolver interface {
	Resolve(ctx context.Context, src Source) (dir string, err error)
}

// ErrRemoteUnsupported is NoRemote's error.
var ErrRemoteUnsupported = errors.New("only local module sources (beginning ./, ../ or /) can be loaded without a Resolver")

// NoRemote is the Resolver used when the caller gives none: it refuses
// every source with ErrRemoteUnsupported.
type NoRemote struct{}

// Resolve implements Resolver.
func (NoRemote) Resolve(_ context.Context, src Source) (string, error) {
	return "", fmt.Errorf("module source %q: %w", src.Source, ErrRemoteUnsupported)
}

// Options say where a module's sources and providers come from.
type Options struct {
	// BaseDir resolves relative local sources; empty is the process's
	// working directory.
	BaseDir string
	// Resolver fetches non-local sources; nil is NoRemote.
	Resolver Resolver
	// Providers adds provider factories (awscc, test providers) to the
	// built-in terraform provider, which is always there.
	Providers providers.Registry
	// DevOverrides and SchemaCacheDir are the CLI configuration's
	// dev_overrides and the provider schema cache: every other provider
	// the module needs is the package "cairn init" installed in the
	// module's directory (.terraform/providers, checked against its
	// .terraform.lock.hcl), as for "cairn apply" there.
	DevOverrides   map[addrs.Provider]string
	SchemaCacheDir string
	// Now is the plan's timestamp (plantimestamp()); nil is time.Now.
	Now func() time.Time
}

// Module is a module directory loaded as a root module, ready to plan.
// It is safe for concurrent use: every run makes its own provider
// instances.
type Module struct {
	cfg *configs.Module
	reg providers.Registry
	now func() time.Time
}

// Load resolves src to a directory and loads it as a root module. User
// errors (a missing directory, a file that fails to parse) are
// diagnostics with the file and line; an unresolvable source is one
// diagnostic naming it.
func Load(ctx context.Context, src Source, opts Options) (*Module, diags.Diagnostics) {
	dir, err := resolveDir(ctx, src, opts)
	if err != nil {
		return nil, diags.Diagnostics{diags.Errorf("Failed to resolve the module source", "%s.", err)}
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, diags.Diagnostics{diags.Errorf("Module directory not found",
			"The module source %q is not a directory (%s). A local source names a directory of .tf files.", src.Source, dir)}
	}
	cfg, ds := loadInstalled(dir)
	if ds.HasErrors() {
		return nil, ds
	}
	reg := providers.Registry{}
	for addr, f := range opts.Providers {
		reg[addr] = f
	}
	if _, ok := reg[builtin.TerraformProviderAddr]; !ok {
		reg[builtin.TerraformProviderAddr] = func() (providers.Interface, error) {
			tp := builtin.NewTerraformProvider()
			tp.Dir = dir
			return tp, nil
		}
	}
	pds := localproviders.Add(reg, cfg, localproviders.Settings{
		ConfigDir: dir, ProvidersDir: filepath.Join(dir, ".terraform", "providers"),
		DevOverrides: opts.DevOverrides, SchemaCacheDir: opts.SchemaCacheDir,
	})
	if ds = ds.Append(pds); pds.HasErrors() {
		return nil, ds
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	return &Module{cfg: cfg, reg: reg, now: now}, ds
}

// loadInstalled loads dir as a root module, its non-local module calls
// from where init (or Fetched) installed them: .terraform/modules, as
// the command line reads them. A call not installed is configs' "Module
// not installed" at the module block.
func loadInstalled(dir string) (*configs.Module, diags.Diagnostics) {
	m, err := modinstall.ReadManifest(filepath.Join(dir, installedModulesDir))
	if err != nil {
		return nil, diags.Diagnostics{diags.Errorf("Failed to read the module manifest", "%s.", err)}
	}
	return configs.LoadDirInstalled(dir, m.Installed())
}

// Config is the loaded configuration (variables, outputs, resources).
func (m *Module) Config() *configs.Module { return m.cfg }

func resolveDir(ctx context.Context, src Source, opts Options) (string, error) {
	if src.Source == "" {
		return "", errors.New("the module source is empty")
	}
	if !src.IsLocal() {
		r := opts.Resolver
		if r == nil {
			r = NoRemote{}
		}
		return r.Resolve(ctx, src)
	}
	if src.Version != "" {
		return "", fmt.Errorf("module source %q is a local directory, which takes no version (%q)", src.Source, src.Version)
	}
	if filepath.IsAbs(src.Source) {
		return filepath.Clean(src.Source), nil
	}
	base := opts.BaseDir
	if base == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		base = wd
	}
	return filepath.Join(base, src.Source), nil
}

// ProviderFactory returns the factory the module starts addr's
// provider with (built in, added, or installed by init), for a caller
// that stands something in for it but may need the real one ("cairn
// test"'s mock providers, which mock some configurations only).
func (m *Module) ProviderFactory(addr addrs.Provider) (providers.Factory, bool) {
	f, ok := m.reg[addr]
	return f, ok
}
