package getproviders_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/getproviders"
)

// TestFetchArchive places a registry's zip, as signed, where providers
// mirror asks, for this platform and a stand-in one; a tampered zip is
// refused with nothing left at the destination; an unpacked local
// package has no zip to mirror.
func TestFetchArchive(t *testing.T) {
	srv, zip := startRegistry(t)
	direct := getproviders.Method{Kind: getproviders.Direct}
	pick := func(ns string, plat getproviders.Platform) getproviders.Package {
		src := remoteSource(srv, direct)
		src.Platform = plat
		avail, err := src.Available(addrs.Provider{Hostname: srv.Host, Namespace: ns, Type: "random"})
		if err != nil {
			t.Fatal(err)
		}
		return avail[0] // 3.9.0
	}
	dir := t.TempDir()
	for _, plat := range []getproviders.Platform{getproviders.CurrentPlatform(), {OS: "darwin", Arch: "arm64"}} {
		pkg := pick("hashicorp", plat)
		dest := filepath.Join(dir, getproviders.PackedName(pkg))
		a, err := getproviders.FetchArchive(pkg, dest)
		if err != nil {
			t.Fatalf("%s: %v", plat, err)
		}
		if a.Auth == "" {
			t.Errorf("%s: no authentication reported", plat)
		}
		got, err := os.ReadFile(dest)
		if err != nil {
			t.Fatal(err)
		}
		if plat == getproviders.CurrentPlatform() && !bytes.Equal(got, zip) {
			t.Errorf("%s: the zip placed is not the one the registry signed", plat)
		}
	}
	bad := pick("tampered", getproviders.CurrentPlatform())
	dest := filepath.Join(dir, "tampered", getproviders.PackedName(bad))
	if _, err := getproviders.FetchArchive(bad, dest); err == nil {
		t.Error("a tampered zip was accepted")
	}
	if entries, _ := os.ReadDir(filepath.Dir(dest)); len(entries) != 0 {
		t.Errorf("a refused download left %v", entries)
	}
	mirror := t.TempDir()
	writeMirror(t, mirror)
	for _, p := range getproviders.Dir(mirror).Providers() {
		pkgs, err := getproviders.Dir(mirror).Packages(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, pkg := range pkgs {
			_, err := getproviders.FetchArchive(pkg, filepath.Join(t.TempDir(), "out.zip"))
			if pkg.Packed() == (err != nil) {
				t.Errorf("%s: packed %v, error %v", pkg.Location, pkg.Packed(), err)
			}
		}
	}
}
