package getproviders

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// Archive is a package zip placed where a caller asked (providers
// mirror), authenticated as an install would be.
type Archive struct {
	// Path is the zip file.
	Path string
	// Auth says how a downloaded zip was authenticated ("" for a local
	// one).
	Auth string
}

// FetchArchive places pkg's zip at dest: a registry or network mirror
// package is downloaded and authenticated (into a scratch directory
// first, so a refused download leaves dest untouched), a packed local
// one copied. An unpacked local package has no zip to mirror.
func FetchArchive(pkg Package, dest string) (Archive, error) {
	if pkg.unsupported {
		return Archive{}, fmt.Errorf("provider %s %s is not available for %s", pkg.Provider, pkg.Version, pkg.Platform)
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return Archive{}, err
	}
	if pkg.remote == nil {
		if !pkg.Packed() {
			return Archive{}, fmt.Errorf("%s is an unpacked package: only a zip archive can be mirrored", pkg.Location)
		}
		src, err := os.Open(pkg.Location)
		if err != nil {
			return Archive{}, err
		}
		defer src.Close()
		return Archive{Path: dest}, writeFile(dest, src, 0o644)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dest), ".cairn-fetch-")
	if err != nil {
		return Archive{}, err
	}
	defer os.RemoveAll(tmp)
	f, err := pkg.remote.fetch(context.Background(), pkg, tmp, nil)
	if err != nil {
		return Archive{}, err
	}
	if err := os.Rename(f.zip, dest); err != nil {
		return Archive{}, fmt.Errorf("placing %s: %w", dest, err)
	}
	return Archive{Path: dest, Auth: f.auth}, nil
}

// PackedName is pkg's file name in the packed layout:
// terraform-provider-TYPE_VERSION_OS_ARCH.zip.
func PackedName(pkg Package) string {
	return fmt.Sprintf("terraform-provider-%s_%s_%s.zip", pkg.Provider.Type, pkg.Version, pkg.Platform)
}
