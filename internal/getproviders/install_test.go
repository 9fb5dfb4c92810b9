package getproviders_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/getproviders"
)

// The hashes are those the real Terraform 1.5.7 recorded in
// .terraform.lock.hcl for the same packages (see writeMirror).
func TestInstallHashesMatchTerraform(t *testing.T) {
	src, _ := mirrorSource(t)
	tests := map[string]struct {
		reason   string
		provider addrs.Provider
		cs       string
		cache    bool
		wantHash string
		wantLink bool
	}{
		"unpacked":           {reason: "an unpacked package is linked", provider: foo, cs: "~> 1.2", wantHash: "h1:zdgCMKBMsXdb1kCjAfRuYG+Cfy2xmsuURrEayLSeOOA=", wantLink: true},
		"unpacked older":     {reason: "the hash follows the content", provider: foo, cs: "1.2.3", wantHash: "h1:IIPHvUiTMBUuSxlDbNckj5fGFO/8YwSMd8v5+VJXE4g=", wantLink: true},
		"packed":             {reason: "a zip is unpacked; its hash is the unpacked directory's", provider: bar, wantHash: "h1:2CLwys3ohFKrY1aozMRrKU37k9HgTXBXFSw+J2OckDw="},
		"packed via cache":   {reason: "with a cache the target links to the cache entry", provider: bar, cache: true, wantHash: "h1:2CLwys3ohFKrY1aozMRrKU37k9HgTXBXFSw+J2OckDw=", wantLink: true},
		"unpacked via cache": {reason: "the cache entry of an unpacked package links to the mirror", provider: foo, cs: "~> 1.2", cache: true, wantHash: "h1:zdgCMKBMsXdb1kCjAfRuYG+Cfy2xmsuURrEayLSeOOA=", wantLink: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			in := getproviders.Installer{TargetDir: filepath.Join(t.TempDir(), ".terraform", "providers")}
			if tc.cache {
				in.CacheDir = t.TempDir()
			}
			pkg := selectPkg(t, src, tc.provider, tc.cs)
			got, err := in.Install(pkg, nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantHash, got.Hash); diff != "" {
				t.Errorf("%s: -want +got\n%s", tc.reason, diff)
			}
			info, err := os.Lstat(got.Dir)
			if err != nil {
				t.Fatal(err)
			}
			if isLink := info.Mode()&os.ModeSymlink != 0; isLink != tc.wantLink {
				t.Errorf("%s: symlink %v", tc.reason, isLink)
			}
			again, err := getproviders.PackageHashH1(got.Dir)
			if err != nil || again != tc.wantHash {
				t.Errorf("%s: installed directory hashes to %s (%v)", tc.reason, again, err)
			}
			exe := filepath.Join(got.Dir, "terraform-provider-"+tc.provider.Type+"_v"+pkg.Version.String())
			if fi, err := os.Stat(exe); err != nil || fi.Mode()&0o100 == 0 {
				t.Errorf("%s: plugin not executable: %v", tc.reason, err)
			}
		})
	}
}

func TestInstallRefusesChangedPackage(t *testing.T) {
	src, dir := mirrorSource(t)
	pkg := selectPkg(t, src, foo, "1.2.3")
	writeFile(t, filepath.Join(dir, "example.com/test/foo/1.2.3/linux_amd64/terraform-provider-foo_v1.2.3"), "tampered", 0o755)
	target := filepath.Join(t.TempDir(), "providers")
	locked := func(h string) bool { return h == "h1:IIPHvUiTMBUuSxlDbNckj5fGFO/8YwSMd8v5+VJXE4g=" }
	_, err := getproviders.Installer{TargetDir: target}.Install(pkg, locked)
	var mismatch *getproviders.HashMismatchError
	if !errors.As(err, &mismatch) {
		t.Fatalf("want HashMismatchError, got %v", err)
	}
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Errorf("a refused package must leave the target untouched: %v", err)
	}
}

func TestUnzipRefusesEscapingEntries(t *testing.T) {
	dir := t.TempDir()
	writeZip(t, filepath.Join(dir, "example.com/test/bad/terraform-provider-bad_1.0.0_linux_amd64.zip"), map[string]string{"../evil": "x"})
	src := getproviders.Source{Methods: []getproviders.Method{{Dir: getproviders.Dir(dir)}}, Platform: linux}
	pkg := selectPkg(t, src, addrs.Provider{Hostname: "example.com", Namespace: "test", Type: "bad"}, "")
	if _, err := (getproviders.Installer{TargetDir: t.TempDir()}).Install(pkg, nil); err == nil {
		t.Fatal("an entry outside the package directory must be refused")
	}
}

func selectPkg(t *testing.T, src getproviders.Source, p addrs.Provider, constraints string) getproviders.Package {
	t.Helper()
	cs, err := getproviders.ParseConstraints(constraints)
	if err != nil {
		t.Fatal(err)
	}
	avail, err := src.Available(p)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := getproviders.Select(p, avail, cs, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	return pkg
}

func TestInstalledChecksHash(t *testing.T) {
	src, dir := mirrorSource(t)
	pkg := selectPkg(t, src, foo, "1.2.3")
	in := getproviders.Installer{TargetDir: filepath.Join(t.TempDir(), "providers")}
	const locked = "h1:IIPHvUiTMBUuSxlDbNckj5fGFO/8YwSMd8v5+VJXE4g="
	accept := func(h string) bool { return h == locked }
	if _, err := in.Installed(foo, pkg.Version, linux, accept); err == nil {
		t.Fatal("a package not installed yet must be an error")
	}
	if _, err := in.Install(pkg, accept); err != nil {
		t.Fatal(err)
	}
	if got, err := in.Installed(foo, pkg.Version, linux, accept); err != nil || got.Hash != locked {
		t.Fatalf("installed package: %+v %v", got, err)
	}
	// The link points into the mirror, so changing the mirror changes
	// the installed package, and a later run must refuse it.
	writeFile(t, filepath.Join(dir, "example.com/test/foo/1.2.3/linux_amd64/terraform-provider-foo_v1.2.3"), "changed", 0o755)
	_, err := in.Installed(foo, pkg.Version, linux, accept)
	var mismatch *getproviders.HashMismatchError
	if !errors.As(err, &mismatch) {
		t.Fatalf("want HashMismatchError, got %v", err)
	}
	d := getproviders.NotInstalledDiagnostic(map[addrs.Provider]error{foo: err})
	want := "The installed provider plugins are not consistent with the packages selected in the dependency lock file:\n  - example.com/test/foo: the cached package for example.com/test/foo 1.2.3 (in " + in.TargetDir + ") does not match any of the checksums recorded in the dependency lock file\n\n"
	if !strings.HasPrefix(d.Detail, want) {
		t.Errorf("detail %q", d.Detail)
	}
}

// The messages are Terraform 1.5.7's, which words each stage differently.
func TestHashMismatchMessages(t *testing.T) {
	src, _ := mirrorSource(t)
	tests := map[string]struct {
		provider addrs.Provider
		cs       string
		want     string
	}{
		"unpacked": {provider: foo, cs: "1.2.3", want: "Error while installing example.com/test/foo v1.2.3: the local package for example.com/test/foo 1.2.3 doesn't match any of the checksums previously recorded in the dependency lock file (this might be because the available checksums are for packages targeting different platforms); for more information: https://www.terraform.io/language/provider-checksum-verification"},
		"packed":   {provider: bar, want: "Error while installing example.com/test/bar v0.5.0: the current package for example.com/test/bar 0.5.0 doesn't match any of the checksums previously recorded in the dependency lock file; for more information: https://www.terraform.io/language/provider-checksum-verification"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			pkg := selectPkg(t, src, tc.provider, tc.cs)
			_, err := getproviders.Installer{TargetDir: t.TempDir()}.Install(pkg, func(string) bool { return false })
			if diff := cmp.Diff(tc.want, getproviders.InstallDiagnostic(pkg, err, nil).Detail); diff != "" {
				t.Errorf("-want +got\n%s", diff)
			}
		})
	}
}
