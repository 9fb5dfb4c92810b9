package modulerun

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/cairn-iac/cairn/internal/modinstall"
)

// Fetched resolves non-local sources (registry, git, HTTP archives,
// buckets) with the engine's module installer, as "cairn init" fetches
// them. Each source and version is fetched once into Dir, under a name
// derived from both, and kept for later runs: a module component plans
// against the same module on every run, as a Terraform root plans
// against what init put in .terraform/modules until "init -upgrade".
// Deleting Dir fetches again. The modules a fetched module calls are
// installed beside it (its own .terraform/modules), so it loads as a
// root does after init.
type Fetched struct {
	// Dir holds the fetched packages.
	Dir string
	// Fetcher downloads; nil is a new one.
	Fetcher *modinstall.Fetcher

	// mu serialises fetches: two components of one source fetch it once.
	mu sync.Mutex
}

// fetchedMarker, beside a package, records the module's directory in it
// once the package and what it calls are fully installed.
const fetchedMarker = ".module"

// Resolve implements Resolver.
func (f *Fetched) Resolve(ctx context.Context, src Source) (string, error) {
	if f.Dir == "" {
		return "", errors.New("no directory to fetch module sources into")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.Fetcher == nil {
		f.Fetcher = modinstall.NewFetcher()
	}
	pkg := filepath.Join(f.Dir, fetchedKey(src))
	if rel, err := os.ReadFile(pkg + fetchedMarker); err == nil {
		if dir := filepath.Join(pkg, string(rel)); isDir(dir) {
			return dir, nil
		}
	}
	dir, err := f.fetch(ctx, src, pkg)
	if err != nil {
		_ = os.RemoveAll(pkg)
		return "", err
	}
	rel, err := filepath.Rel(pkg, dir)
	if err == nil {
		err = os.WriteFile(pkg+fetchedMarker, []byte(rel), 0o644)
	}
	return dir, err
}

// fetch downloads src into pkg and installs the modules it calls.
func (f *Fetched) fetch(ctx context.Context, src Source, pkg string) (string, error) {
	if err := os.MkdirAll(f.Dir, 0o755); err != nil {
		return "", err
	}
	dir, _, err := f.Fetcher.Fetch(ctx, src.Source, src.Version, pkg)
	if err != nil {
		return "", err
	}
	in := &modinstall.Installer{Root: dir, ModulesDir: installedModulesDir, Fetcher: f.Fetcher}
	m, ds := in.Install(ctx, nil)
	if ds.HasErrors() {
		return "", fmt.Errorf("installing the modules %s calls: %w", src.Source, ds.Err())
	}
	if len(m) > 1 {
		if err := m.Write(filepath.Join(dir, installedModulesDir)); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// installedModulesDir is where init installs a root's modules, relative
// to the root.
const installedModulesDir = ".terraform/modules"

// fetchedKey names a source's package in the fetch directory: the same
// source and version always land in the same place, and different ones
// never do.
func fetchedKey(src Source) string {
	sum := sha256.Sum256([]byte(src.Source + "\x00" + src.Version))
	return hex.EncodeToString(sum[:12])
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
