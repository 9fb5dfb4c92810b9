package getproviders

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/go-version"

	"github.com/cairn-iac/cairn/internal/addrs"
)

// Package is one provider package found on disk for one platform.
type Package struct {
	Provider addrs.Provider
	Version  *version.Version
	Platform Platform
	// Location is the package directory (unpacked layout) or the .zip
	// file (packed layout), or for a package still to be downloaded the
	// URL it is described at.
	Location string

	// remote fetches a package offered by a registry or network mirror;
	// nil for a package on disk.
	remote remoteFetcher
	// unsupported marks a registry version without a package for the
	// platform: offered, so that selecting it fails as in Terraform.
	unsupported bool
}

// Supported reports whether the package exists for its platform; a
// registry version listed without it is offered but not installable.
func (p Package) Supported() bool { return !p.unsupported }

// Packed reports whether the package is a zip archive to be unpacked.
func (p Package) Packed() bool { return p.remote == nil && strings.HasSuffix(p.Location, ".zip") }

// Remote reports whether the package is downloaded on install.
func (p Package) Remote() bool { return p.remote != nil }

// remoteFetcher downloads and authenticates a package into dir.
type remoteFetcher interface {
	fetch(ctx context.Context, pkg Package, dir string, progress Progress) (fetched, error)
}

// fetched is a downloaded, authenticated package.
type fetched struct {
	zip string
	// hashes are the hashes the source vouches for, beside the
	// package's own "h1:" (every platform's "zh:" from a signed
	// SHA256SUMS, or a mirror's listed hashes).
	hashes []string
	// auth says how it was authenticated, for init's progress line.
	auth string
}

// Dir is a local directory in Terraform's filesystem mirror layouts, the
// shape of -plugin-dir directories, filesystem_mirror paths and the
// implied local mirror directories:
//
//	HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/              (unpacked)
//	HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip  (packed)
//
// Entries that fit neither layout are ignored, as Terraform ignores them.
type Dir string

// Packages returns every package for provider p in the directory. A
// directory that does not exist or cannot be read is an error naming it,
// the same failure Terraform reports ("cannot search DIR: ..."); a
// directory without the provider gives no packages and no error.
func (d Dir) Packages(p addrs.Provider) ([]Package, error) {
	if _, err := os.Lstat(string(d)); err != nil {
		return nil, fmt.Errorf("cannot search %s: %w", d, err)
	}
	typeDir := filepath.Join(string(d), p.Hostname, p.Namespace, p.Type)
	entries, err := os.ReadDir(typeDir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("cannot search %s: %w", d, err)
	}
	var pkgs []Package
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".zip") {
			if pkg, ok := packedPackage(p, typeDir, e.Name()); ok {
				pkgs = append(pkgs, pkg)
			}
			continue
		}
		more, err := unpackedPackages(p, filepath.Join(typeDir, e.Name()), e.Name())
		if err != nil {
			return nil, fmt.Errorf("cannot search %s: %w", d, err)
		}
		pkgs = append(pkgs, more...)
	}
	return pkgs, nil
}

// packedPackage reads terraform-provider-TYPE_VERSION_OS_ARCH.zip.
func packedPackage(p addrs.Provider, dir, name string) (Package, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSuffix(name, ".zip"), "terraform-provider-"+p.Type+"_")
	if !ok {
		return Package{}, false
	}
	parts := strings.Split(rest, "_")
	if len(parts) != 3 {
		return Package{}, false
	}
	v, err := version.NewSemver(parts[0])
	if err != nil {
		return Package{}, false
	}
	plat := Platform{OS: parts[1], Arch: parts[2]}
	return Package{Provider: p, Version: v, Platform: plat, Location: filepath.Join(dir, name)}, true
}

// unpackedPackages reads VERSION/OS_ARCH directories (symlinks to
// directories count, as mirrors are often built from links).
func unpackedPackages(p addrs.Provider, versionDir, name string) ([]Package, error) {
	v, err := version.NewSemver(name)
	if err != nil || !isDir(versionDir) {
		return nil, nil
	}
	entries, err := os.ReadDir(versionDir)
	if err != nil {
		return nil, err
	}
	var pkgs []Package
	for _, e := range entries {
		plat, err := ParsePlatform(e.Name())
		loc := filepath.Join(versionDir, e.Name())
		if err != nil || !isDir(loc) {
			continue
		}
		pkgs = append(pkgs, Package{Provider: p, Version: v, Platform: plat, Location: loc})
	}
	return pkgs, nil
}

func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().Type()&fs.ModeType == fs.ModeDir
}

// Providers lists the providers with at least one package (for any
// platform) in the directory, in HOST/NAMESPACE/TYPE order. Terraform
// excludes these from the implied direct method: a provider placed in an
// implied local directory is never looked up in its registry. An
// unreadable directory lists nothing.
func (d Dir) Providers() []addrs.Provider {
	var out []addrs.Provider
	hosts, _ := os.ReadDir(string(d))
	for _, h := range hosts {
		namespaces, _ := os.ReadDir(filepath.Join(string(d), h.Name()))
		for _, ns := range namespaces {
			types, _ := os.ReadDir(filepath.Join(string(d), h.Name(), ns.Name()))
			for _, typ := range types {
				p := addrs.Provider{Hostname: h.Name(), Namespace: ns.Name(), Type: typ.Name()}
				if pkgs, err := d.Packages(p); err == nil && len(pkgs) > 0 {
					out = append(out, p)
				}
			}
		}
	}
	return out
}
