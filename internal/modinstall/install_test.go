package modinstall

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// hookLog records the installer's progress lines as init prints them.
type hookLog []string

func (h *hookLog) Download(key, pkg, version string) {
	*h = append(*h, strings.TrimSpace("download "+key+" "+pkg+" "+version))
}
func (h *hookLog) Install(key, version, dir string) { *h = append(*h, "install "+key+" "+dir) }

// TestInstall checks a tree install against the loopback server: one
// download per package (a second key gets a copy), nested and local
// modules inside a package, the manifest Terraform would write, and
// what a second install, -upgrade and a changed source fetch again.
func TestInstall(t *testing.T) {
	srv, repo := startServer(t)
	root := t.TempDir()
	write := func(main string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, "main.tf"), []byte(main), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(`
module "a" { source = "` + srv.URL + `/archive/net.tar.gz" }
module "b" { source = "` + srv.URL + `/archive/net.tar.gz//sub" }
module "g" { source = "git::` + repo + `?ref=v1" }
`)
	install := func(prior Manifest, upgrade bool) (Manifest, hookLog) {
		t.Helper()
		var log hookLog
		in := &Installer{Root: root, ModulesDir: ".terraform/modules", Fetcher: NewFetcher(WithHTTPClient(srv.Client)), Hooks: &log, Upgrade: upgrade}
		man, ds := in.Install(context.Background(), prior)
		if ds.HasErrors() {
			t.Fatal(ds.Error())
		}
		return man, log
	}
	man, log := install(nil, false)
	wantLog := hookLog{
		"download a " + srv.URL + "/archive/net.tar.gz", "install a .terraform/modules/a",
		"download b " + srv.URL + "/archive/net.tar.gz", "install b .terraform/modules/b/sub",
		"download g git::" + repo + "?ref=v1", "install g .terraform/modules/g",
	}
	if diff := cmp.Diff(wantLog, log); diff != "" {
		t.Errorf("progress -want +got:\n%s", diff)
	}
	want := `{"Modules":[{"Key":"","Source":"","Dir":"."},` +
		`{"Key":"a","Source":"` + srv.URL + `/archive/net.tar.gz","Dir":".terraform/modules/a"},` +
		`{"Key":"b","Source":"` + srv.URL + `/archive/net.tar.gz//sub","Dir":".terraform/modules/b/sub"},` +
		`{"Key":"g","Source":"git::` + repo + `?ref=v1","Dir":".terraform/modules/g"}]}`
	if got := string(man.Bytes()); got != want {
		t.Errorf("manifest:\n got %s\nwant %s", got, want)
	}
	if n := srv.Requests("/archive/net.tar.gz"); n != 1 {
		t.Errorf("the package shared by a and b was requested %d times, want once", n)
	}
	if _, err := os.Stat(filepath.Join(root, ".terraform/modules/b/sub/main.tf")); err != nil {
		t.Errorf("b's copy of the package: %v", err)
	}

	// Installed modules are kept; -upgrade fetches them again.
	if _, log := install(man, false); len(log) != 0 {
		t.Errorf("a second install did %v, want nothing", log)
	}
	if _, log := install(man, true); len(log) != 6 || srv.Requests("/archive/net.tar.gz") != 2 {
		t.Errorf("-upgrade did %v with %d archive requests, want every module again from one request", log, srv.Requests("/archive/net.tar.gz"))
	}

	// A changed source replaces only that module.
	write(`
module "a" { source = "` + srv.URL + `/archive/net.tar.gz" }
module "b" { source = "` + srv.URL + `/archive/net.tar.gz//sub" }
module "g" { source = "git::` + repo + `?ref=v2" }
`)
	man2, log := install(man, false)
	if diff := cmp.Diff(hookLog{"download g git::" + repo + "?ref=v2", "install g .terraform/modules/g"}, log); diff != "" {
		t.Errorf("after changing g's source -want +got:\n%s", diff)
	}
	if b, _ := os.ReadFile(filepath.Join(root, ".terraform/modules/g/main.tf")); !strings.Contains(string(b), "# v2") {
		t.Errorf("g was not replaced by v2: %q", b)
	}
	if man2["g"].Source != "git::"+repo+"?ref=v2" {
		t.Errorf("g's record = %+v", man2["g"])
	}
}
