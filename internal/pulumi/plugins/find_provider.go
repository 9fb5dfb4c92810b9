package plugins

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/hashicorp/go-version"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/cliconfig"
	"github.com/cairn-iac/cairn/internal/getproviders"
	"github.com/cairn-iac/cairn/internal/plugincache"
)

// providerFinder finds an installed Terraform provider plugin the way
// cairn init does: the CLI configuration's installation methods (or the
// implied local mirror directories), plus its plugin cache directory. It
// never downloads: a provider found nowhere is an error naming every
// place looked.
type providerFinder struct {
	getenv func(string) string
	// cwd is the directory the implied terraform.d/plugins mirror is
	// relative to: the Pulumi project's.
	cwd string
}

// find returns the plugin binary of p at the newest version the
// constraint allows ("" allows any; "3.9.0" is exactly that version),
// and that version.
func (f providerFinder) find(p addrs.Provider, constraint string) (string, *version.Version, error) {
	var cs getproviders.Constraints
	if constraint != "" {
		var err error
		if cs, err = getproviders.ParseConstraints(constraint); err != nil {
			return "", nil, fmt.Errorf("version %q of %s: %w", constraint, p.ForDisplay(), err)
		}
	}
	env := cliconfig.Env{Getenv: f.getenv, HomeDir: f.getenv("HOME")}
	cfg, ds := cliconfig.Load(env)
	if ds.HasErrors() {
		return "", nil, fmt.Errorf("reading the CLI configuration: %s", ds.Error())
	}
	methods := cfg.Methods(nil, env, f.cwd)
	if cfg.PluginCacheDir != "" {
		methods = append(methods, getproviders.Method{Kind: getproviders.FilesystemMirror, Dir: getproviders.Dir(cfg.PluginCacheDir)})
	}
	src := getproviders.Source{Methods: methods, Platform: getproviders.CurrentPlatform()}
	avail, err := src.Available(p)
	var nf *getproviders.NotFoundError
	if errors.As(err, &nf) {
		return "", nil, fmt.Errorf("%w\n\nCairn serves providers installed locally (a filesystem mirror or the plugin cache of the CLI configuration, as cairn init finds them) and does not download them from a registry", err)
	}
	if err != nil {
		return "", nil, err
	}
	pkg, err := getproviders.Select(p, avail, cs, nil, false)
	if err != nil {
		return "", nil, fmt.Errorf("provider %s: %w", p.ForDisplay(), err)
	}
	dir := pkg.Location
	if pkg.Packed() {
		// A zipped mirror package is unpacked once, into Cairn's plugin
		// cache, in the installed layout.
		cache := plugincache.Dir(f.getenv)
		if cache == "" {
			return "", nil, fmt.Errorf("provider %s %s is a zip archive and there is no cache directory to unpack it into (set CAIRN_PLUGIN_CACHE)", p.ForDisplay(), pkg.Version)
		}
		root := filepath.Join(cache, "terraform-providers")
		dir = filepath.Join(root, p.Hostname, p.Namespace, p.Type, pkg.Version.String(), pkg.Platform.String())
		if exe, err := getproviders.ExecutableFile(p, dir); err == nil {
			return exe, pkg.Version, nil
		}
		got, err := getproviders.Installer{TargetDir: root}.Install(pkg, nil)
		if err != nil {
			return "", nil, err
		}
		dir = got.Dir
	}
	exe, err := getproviders.ExecutableFile(p, dir)
	if err != nil {
		return "", nil, fmt.Errorf("provider %s %s: %w", p.ForDisplay(), pkg.Version, err)
	}
	return exe, pkg.Version, nil
}
