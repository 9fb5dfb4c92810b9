package getproviders

import (
	"archive/zip"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Installer places selected packages under TargetDir (a working
// directory's .terraform/providers) in the unpacked layout
// HOST/NAMESPACE/TYPE/VERSION/OS_ARCH, as Terraform's init does: a packed
// package is unpacked there, an unpacked one is linked to. With CacheDir
// (plugin_cache_dir) set, the package is first placed in the cache the
// same way (unpacked, or a link to an unpacked mirror package), when
// missing there, and the target links to the cache entry.
type Installer struct {
	TargetDir string
	CacheDir  string
}

// Installed is the result of one installation.
type Installed struct {
	// Dir is the package directory under TargetDir.
	Dir string
	// Hash is the package's "h1:" hash, to record in the lock file.
	Hash string
	// Hashes are every hash to record: Hash, plus for a downloaded
	// package the hashes its registry or mirror vouched for.
	Hashes []string
	// Auth says how a downloaded package was authenticated ("" for a
	// local one: unauthenticated).
	Auth string
}

// Install hashes pkg, checks the hash with accept (nil accepts any: no
// lock entry yet) and only then writes, so a refused package leaves the
// working directory untouched. A refused package is a *HashMismatchError;
// other errors are internal and name the paths involved.
func (in Installer) Install(pkg Package, accept func(hash string) bool) (Installed, error) {
	return in.InstallContext(context.Background(), pkg, accept, nil)
}

// InstallContext is Install with a download bound to ctx (init cancels
// the other downloads when one fails) and reported to progress (nil:
// not reported) as it arrives.
func (in Installer) InstallContext(ctx context.Context, pkg Package, accept func(hash string) bool, progress Progress) (Installed, error) {
	if pkg.unsupported {
		return Installed{}, fmt.Errorf("provider %s %s is not available for %s", pkg.Provider, pkg.Version, pkg.Platform)
	}
	if pkg.remote != nil {
		return in.installRemote(ctx, pkg, accept, progress)
	}
	hash, err := packageHash(pkg)
	if err != nil {
		return Installed{}, err
	}
	if accept != nil && !accept(hash) {
		stage := FromDir
		if pkg.Packed() {
			stage = FromArchive
		}
		return Installed{}, &HashMismatchError{Package: pkg, Hash: hash, Stage: stage}
	}
	target := filepath.Join(in.TargetDir, packagePath(pkg))
	if err := os.RemoveAll(target); err != nil {
		return Installed{}, fmt.Errorf("replacing %s: %w", target, err)
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return Installed{}, fmt.Errorf("installing %s: %w", target, err)
	}
	if in.CacheDir != "" {
		err = in.installViaCache(pkg, target)
	} else if pkg.Packed() {
		err = unzip(pkg.Location, target)
	} else {
		err = linkDir(pkg.Location, target)
	}
	if err != nil {
		return Installed{}, err
	}
	return Installed{Dir: target, Hash: hash, Hashes: []string{hash}}, nil
}

// installRemote downloads and authenticates pkg into a temporary
// directory, unpacks it there once, hashes the unpacked files (cheaper
// than hashing the zip, which would decompress it a second time) and
// only then moves the package into place (the plugin cache first when
// set, as for a zip from a mirror). A lock entry is met by the
// package's "h1:" or by its zip's "zh:" hash. Nothing is written under
// TargetDir or CacheDir unless every check passed.
func (in Installer) installRemote(ctx context.Context, pkg Package, accept func(hash string) bool, progress Progress) (Installed, error) {
	tmp, err := os.MkdirTemp("", "cairn-provider-")
	if err != nil {
		return Installed{}, err
	}
	defer os.RemoveAll(tmp)
	f, err := pkg.remote.fetch(ctx, pkg, tmp, progress)
	if err != nil {
		return Installed{}, err
	}
	staged := filepath.Join(tmp, "package")
	if err := unzip(f.zip, staged); err != nil {
		return Installed{}, err
	}
	hash, err := PackageHashH1(staged)
	if err != nil {
		return Installed{}, err
	}
	if accept != nil && !accept(hash) {
		sum, err := fileSHA256(f.zip)
		if err != nil {
			return Installed{}, err
		}
		if !accept(HashPrefixZH + hex.EncodeToString(sum[:])) {
			local := pkg
			local.remote, local.Location = nil, f.zip
			return Installed{}, &HashMismatchError{Package: local, Hash: hash, Stage: FromArchive}
		}
	}
	target := filepath.Join(in.TargetDir, packagePath(pkg))
	if err := os.RemoveAll(target); err != nil {
		return Installed{}, fmt.Errorf("replacing %s: %w", target, err)
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return Installed{}, fmt.Errorf("installing %s: %w", target, err)
	}
	if in.CacheDir == "" {
		err = moveDir(staged, target)
	} else {
		err = in.fillCache(pkg, staged, target)
	}
	if err != nil {
		return Installed{}, err
	}
	return Installed{Dir: target, Hash: hash, Hashes: append([]string{hash}, f.hashes...), Auth: f.auth}, nil
}

// fillCache moves a staged package into the cache when missing there and
// links target to the cache entry.
func (in Installer) fillCache(pkg Package, staged, target string) error {
	cached := filepath.Join(in.CacheDir, packagePath(pkg))
	if !isDir(cached) {
		if err := os.MkdirAll(filepath.Dir(cached), 0o755); err != nil {
			return fmt.Errorf("filling plugin cache %s: %w", cached, err)
		}
		if err := moveDir(staged, cached); err != nil {
			return err
		}
	}
	return linkDir(cached, target)
}

// moveDir renames from to dest, or copies it (file modes kept) when they
// are on different filesystems (a tmpfs /tmp).
func moveDir(from, dest string) error {
	if err := os.Rename(from, dest); err == nil {
		return nil
	}
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		out := filepath.Join(dest, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		src, err := os.Open(p)
		if err != nil {
			return err
		}
		defer src.Close()
		return writeFile(out, src, info.Mode().Perm())
	})
	if err != nil {
		return fmt.Errorf("installing %s: %w", dest, err)
	}
	return nil
}

// packagePath is HOST/NAMESPACE/TYPE/VERSION/OS_ARCH.
func packagePath(pkg Package) string {
	p := pkg.Provider
	return filepath.Join(p.Hostname, p.Namespace, p.Type, pkg.Version.String(), pkg.Platform.String())
}

func packageHash(pkg Package) (string, error) {
	if pkg.Packed() {
		return ZipHashH1(pkg.Location)
	}
	return PackageHashH1(pkg.Location)
}

// installViaCache fills the cache entry when missing, then links to it.
func (in Installer) installViaCache(pkg Package, target string) error {
	cached := filepath.Join(in.CacheDir, packagePath(pkg))
	if !isDir(cached) {
		if err := os.MkdirAll(filepath.Dir(cached), 0o755); err != nil {
			return fmt.Errorf("filling plugin cache %s: %w", cached, err)
		}
		var err error
		if pkg.Packed() {
			err = unzip(pkg.Location, cached)
		} else {
			err = linkDir(pkg.Location, cached)
		}
		if err != nil {
			return err
		}
	}
	return linkDir(cached, target)
}

func linkDir(from, target string) error {
	abs, err := filepath.Abs(from)
	if err != nil {
		return fmt.Errorf("linking %s: %w", target, err)
	}
	if err := os.Symlink(abs, target); err != nil {
		return fmt.Errorf("linking %s to %s: %w", target, abs, err)
	}
	return nil
}

// unzip extracts a package archive, keeping file modes so the plugin stays
// executable, and refusing entries that would land outside dir.
func unzip(archive, dir string) error {
	r, err := zip.OpenReader(archive)
	if err != nil {
		return fmt.Errorf("unpacking %s: %w", archive, err)
	}
	defer r.Close()
	for _, f := range r.File {
		if err := extract(f, dir); err != nil {
			return fmt.Errorf("unpacking %s: %w", archive, err)
		}
	}
	return nil
}

func extract(f *zip.File, dir string) error {
	name := filepath.FromSlash(f.Name)
	if !filepath.IsLocal(name) {
		return fmt.Errorf("entry %q leaves the package directory", f.Name)
	}
	dest := filepath.Join(dir, name)
	if f.FileInfo().IsDir() || strings.HasSuffix(f.Name, "/") {
		return os.MkdirAll(dest, 0o755)
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return err
	}
	src, err := f.Open()
	if err != nil {
		return err
	}
	defer src.Close()
	return writeFile(dest, src, f.Mode().Perm())
}

func writeFile(dest string, src io.Reader, perm os.FileMode) error {
	out, err := os.OpenFile(dest, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, src); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// FromCache links pkg's entry in CacheDir into TargetDir, as Terraform
// 1.5.7 links a package from its shared cache instead of downloading
// it: only when the entry's "h1:" hash is one accept takes. A nil accept
// (no lock entry yet) takes any entry only with mayBreakLock
// (plugin_cache_may_break_dependency_lock_file): else the package is
// downloaded, so that the lock records the registry's signed hashes
// rather than only the cache's. ok is false when the cache cannot
// serve: the caller downloads.
func (in Installer) FromCache(pkg Package, accept func(hash string) bool, mayBreakLock bool) (inst Installed, ok bool, err error) {
	if in.CacheDir == "" || (accept == nil && !mayBreakLock) {
		return Installed{}, false, nil
	}
	cached := filepath.Join(in.CacheDir, packagePath(pkg))
	if !isDir(cached) {
		return Installed{}, false, nil
	}
	hash, err := PackageHashH1(cached)
	if err != nil || (accept != nil && !accept(hash)) {
		return Installed{}, false, nil // a damaged or different entry: download instead
	}
	target := filepath.Join(in.TargetDir, packagePath(pkg))
	if err := os.RemoveAll(target); err != nil {
		return Installed{}, false, fmt.Errorf("replacing %s: %w", target, err)
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return Installed{}, false, fmt.Errorf("installing %s: %w", target, err)
	}
	if err := linkDir(cached, target); err != nil {
		return Installed{}, false, err
	}
	return Installed{Dir: target, Hash: hash, Hashes: []string{hash}}, true, nil
}
