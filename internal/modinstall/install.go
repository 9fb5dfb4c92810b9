package modinstall

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	getter "github.com/hashicorp/go-getter"
	goversion "github.com/hashicorp/go-version"
)

// Hooks hear of installation progress, for the messages init prints.
type Hooks interface {
	// Download is called before a package is fetched; version is empty
	// for sources other than the registry.
	Download(key, pkg, version string)
	// Install is called once a module is in place at dir.
	Install(key, version, dir string)
}

type noHooks struct{}

func (noHooks) Download(string, string, string) {}
func (noHooks) Install(string, string, string)  {}

// Installer installs every module a configuration calls, as "terraform
// init" and "terraform get" do. Fetcher and Hooks may be nil (a new
// Fetcher; no progress reported).
type Installer struct {
	// Root is the root module's directory.
	Root string
	// ModulesDir is where packages go, relative to Root in slash form
	// (".terraform/modules"), or absolute.
	ModulesDir string
	Fetcher    *Fetcher
	Hooks      Hooks
	// Upgrade fetches every non-local module again, the newest version
	// registry constraints allow, as -upgrade does.
	Upgrade bool
	// Static evaluates the source and version of calls that refer to
	// variables and locals (OpenTofu 1.8, Terraform 1.15); nil refuses
	// such calls.
	Static configs.StaticValues
	// Sources, when not nil, receives the files of every module read,
	// keyed as diagnostics name them, so that a caller can quote them
	// even after a failed install removed its packages.
	Sources map[string][]byte
}

// walk is the state of one Install: the manifest being built. Calls
// are installed in parallel (see children); mu guards what they share.
type walk struct {
	*Installer
	ctx    context.Context
	cancel context.CancelFunc
	// slots bounds the fetches (registry queries and downloads) in
	// flight at once.
	slots chan struct{}

	mu       sync.Mutex
	manifest Manifest
	// fetched are the package directories this walk fetched, removed
	// again when the install fails so that a failed init leaves nothing.
	fetched []string
	// failed is set by the first fetch to fail, which cancels the rest.
	failed bool
	// users are the keys that fetched each package address in this walk.
	users map[string][]string
}

// pkgScope is the package a module belongs to: local calls inside it
// must stay under root. The root module's package has no bound.
type pkgScope struct{ root, addr string }

// Install loads the root module, installs what it calls (recursively,
// depth first in call-name order, as Terraform does) and returns the new
// manifest; prior is the manifest of an earlier install, whose modules
// are kept when their source and version still match. The manifest is
// not written: the caller writes it when there are no errors. When there
// are, the packages this call fetched are removed again.
func (i *Installer) Install(ctx context.Context, prior Manifest) (Manifest, diags.Diagnostics) {
	if i.Hooks == nil {
		i.Hooks = noHooks{}
	}
	if i.Fetcher == nil {
		i.Fetcher = NewFetcher()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := &walk{Installer: i, ctx: ctx, cancel: cancel, manifest: maps.Clone(prior), slots: make(chan struct{}, fetchParallelism)}
	if w.manifest == nil {
		w.manifest = Manifest{}
	}
	w.manifest[""] = Record{Key: "", Source: "", Dir: "."}
	root, ds := configs.LoadModuleDir(i.Root, ".")
	w.keepSources(root)
	if ds.HasErrors() {
		return nil, ds
	}
	ds = ds.Append(dropCanceled(w.children(root, nil, pkgScope{}, i.Hooks)))
	if !ds.HasErrors() {
		if err := w.settleDownloads(); err != nil {
			ds = ds.Append(diags.Errorf("Failed to install modules", "%s", err))
		}
	}
	if ds.HasErrors() {
		for _, dir := range w.fetched {
			_ = os.RemoveAll(w.abs(dir))
		}
	}
	return w.manifest, ds
}

func (w *walk) keepSources(mod *configs.Module) {
	if w.Sources == nil || mod == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for name, b := range mod.Sources {
		w.Sources[name] = b
	}
}

// one installs one call unless it is installed already, returning its
// directory relative to Root and the package its own calls live in.
func (w *walk) one(parent *configs.Module, mc *configs.ModuleCall, key string, scope pkgScope, h Hooks) (string, pkgScope, diags.Diagnostics) {
	src, err := ParseSource(mc.SourceAddr)
	var rel *ErrMaybeRelativePath
	if errors.As(err, &rel) {
		return "", scope, diags.Diagnostics{diags.At(mc.SourceAddrRange, "Module not found", rel.Error())}
	}
	if err != nil {
		return "", scope, diags.Diagnostics{diags.At(mc.SourceAddrRange, "Invalid module source address",
			fmt.Sprintf("Failed to parse module source address: %s.", err))}
	}
	if rec, ok := w.forgetIfChanged(key, src, mc); ok && isDir(w.abs(rec.Dir)) {
		return rec.Dir, w.scopeOf(key, src, scope), nil
	}
	if err := os.RemoveAll(w.abs(w.packageDir(key))); err != nil {
		return "", scope, diags.Diagnostics{diags.Errorf("Failed to remove local module cache",
			"Cairn tried to remove %s in order to reinstall this module, but encountered an error: %s", w.packageDir(key), err)}
	}
	var dir, version string
	var ds diags.Diagnostics
	switch src.Kind {
	case Local:
		dir, ds = w.local(parent, mc, src, scope)
	case Registry:
		dir, version, ds = w.registry(mc, key, src, h)
	default:
		dir, ds = w.remote(mc, key, src, "", h)
	}
	if ds.HasErrors() {
		return "", scope, ds
	}
	w.mu.Lock()
	w.manifest[key] = Record{Key: key, Source: src.String(), Version: version, Dir: dir}
	w.mu.Unlock()
	h.Install(key, version, dir)
	return dir, w.scopeOf(key, src, scope), ds
}

// forgetIfChanged drops the record of key, and of the modules below it,
// when -upgrade was given or the call's source or version no longer
// match what was installed; else it returns the record kept.
func (w *walk) forgetIfChanged(key string, src Source, mc *configs.ModuleCall) (Record, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	rec, ok := w.manifest[key]
	if ok && !w.Upgrade && rec.Source == src.String() && versionAllows(mc.Version, rec.Version) {
		return rec, true
	}
	delete(w.manifest, key)
	for k := range w.manifest {
		if strings.HasPrefix(k, key+".") {
			delete(w.manifest, k)
		}
	}
	return Record{}, false
}

// local records a local call: its directory is the caller's joined with
// the path, which must not leave the caller's package.
func (w *walk) local(parent *configs.Module, mc *configs.ModuleCall, src Source, scope pkgScope) (string, diags.Diagnostics) {
	if mc.Version != "" {
		return "", diags.Diagnostics{diags.At(mc.DeclRange, "Invalid version constraint",
			fmt.Sprintf("Cannot apply a version constraint to module %q (at %s:%d) because it has a relative local path.", mc.Name, mc.DeclRange.Filename, mc.DeclRange.Start.Line))}
	}
	dir := path.Join(parent.Dir, src.Package)
	if scope.root != "" && dir != scope.root && !strings.HasPrefix(dir, scope.root+"/") {
		return "", diags.Diagnostics{diags.At(mc.SourceAddrRange, "Local module path escapes module package",
			fmt.Sprintf("The given source directory for %s would be outside of its containing package %q. Local source addresses starting with \"../\" must stay within the same package that the calling module belongs to.",
				moduleAddr(parent, mc), scope.addr))}
	}
	if !isDir(w.abs(dir)) {
		return "", diags.Diagnostics{diags.At(mc.SourceAddrRange, "Unreadable module directory",
			fmt.Sprintf("The directory %s could not be read for module %q at %s:%d.", dir, mc.Name, mc.DeclRange.Filename, mc.DeclRange.Start.Line))}
	}
	return dir, nil
}

// moduleAddr is the call's module address as messages give it.
func moduleAddr(parent *configs.Module, mc *configs.ModuleCall) string {
	return parent.Path.Child(mc.Name).String()
}

// remote fetches a go-getter package into the key's directory; version
// is the registry version it stands for, if any.
func (w *walk) remote(mc *configs.ModuleCall, key string, src Source, version string, h Hooks) (string, diags.Diagnostics) {
	if version == "" && mc.Version != "" {
		return "", diags.Diagnostics{diags.At(mc.DeclRange, "Invalid version constraint",
			fmt.Sprintf("Cannot apply a version constraint to module %q (at %s:%d) because it doesn't come from a module registry.", mc.Name, mc.DeclRange.Filename, mc.DeclRange.Start.Line))}
	}
	if version == "" {
		h.Download(key, src.Package, "")
	}
	pkgDir := w.packageDir(key)
	w.mu.Lock()
	w.fetched = append(w.fetched, pkgDir)
	if w.users == nil {
		w.users = map[string][]string{}
	}
	w.users[src.Package] = append(w.users[src.Package], key)
	w.mu.Unlock()
	err := w.fetch(func(ctx context.Context) error { return w.Fetcher.FetchPackage(ctx, w.abs(pkgDir), src.Package) })
	if errors.Is(err, errCanceled) {
		return "", diags.Diagnostics{canceledDiag}
	}
	if err != nil {
		return "", diags.Diagnostics{diags.At(mc.DeclRange, "Failed to download module",
			fmt.Sprintf("Could not download module %q (%s:%d) source code from %q: %s", mc.Name, mc.DeclRange.Filename, mc.DeclRange.Start.Line, Redact(src.Package), err))}
	}
	dir, err := subdirIn(w.abs(pkgDir), pkgDir, src.Subdir)
	if err != nil {
		_ = os.RemoveAll(w.abs(pkgDir))
		return "", diags.Diagnostics{diags.Errorf("Failed to expand subdir globs", "%s", err)}
	}
	return dir, nil
}

// scopeOf is the package of the module at key: a fetched package is its
// own, a local module stays in its caller's.
func (w *walk) scopeOf(key string, src Source, caller pkgScope) pkgScope {
	if src.Kind == Local {
		return caller
	}
	return pkgScope{root: w.packageDir(key), addr: src.Package}
}

// packageDir is where the package of key goes, relative to Root.
func (w *walk) packageDir(key string) string { return path.Join(w.ModulesDir, key) }

// abs turns a directory relative to Root into a path to open.
func (w *walk) abs(dir string) string {
	if filepath.IsAbs(dir) {
		return dir
	}
	return filepath.Join(w.Root, filepath.FromSlash(dir))
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// subdirIn resolves a package's subdirectory (go-getter's globs
// allowed) to a directory relative to Root; pkgAbs is pkgDir opened.
func subdirIn(pkgAbs, pkgDir, sub string) (string, error) {
	if sub == "" {
		return pkgDir, nil
	}
	match, err := getter.SubdirGlob(pkgAbs, sub)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(pkgAbs, match)
	if err != nil || escapes(filepath.ToSlash(rel)) {
		return "", fmt.Errorf("subdirectory %q is not inside the module package", sub)
	}
	if !isDir(match) {
		return "", fmt.Errorf("subdirectory %q of the module package is not a directory", sub)
	}
	return path.Join(pkgDir, filepath.ToSlash(rel)), nil
}

// versionAllows reports whether an installed registry version still
// meets the call's constraint; sources without versions always do.
func versionAllows(constraint, installed string) bool {
	if installed == "" || constraint == "" {
		return true
	}
	c, err := goversion.NewConstraint(constraint)
	if err != nil {
		return false
	}
	v, err := goversion.NewVersion(installed)
	return err == nil && c.Check(v)
}
