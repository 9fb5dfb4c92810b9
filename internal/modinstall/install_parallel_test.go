package modinstall

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestInstallParallel proves sibling and nested packages download at
// once: the server holds every par-* archive until three are in flight,
// which a walk fetching one at a time never reaches (each request would
// be refused after the barrier's timeout). The progress reported and the
// manifest are those of a walk one call at a time, in call order.
func TestInstallParallel(t *testing.T) {
	srv, _ := startServer(t)
	for _, name := range []string{"par-a", "par-b", "par-c", "nested", "two-x", "two-y"} {
		srv.AddArchive(t, name, map[string]string{"main.tf": "# " + name + "\n"})
	}
	// par-c's module calls par-nested: a download one level down runs
	// beside its parent's siblings.
	srv.AddArchive(t, "par-c", map[string]string{"main.tf": `module "n" { source = "` + srv.URL + `/archive/nested.tar.gz" }` + "\n"})
	held := srv.Hold("/archive/par-", 3)
	// The registry modules' packages download side by side too.
	heldReg := srv.Hold("/archive/two-", 2)
	root := t.TempDir()
	main := ""
	for _, name := range []string{"c", "a", "b"} {
		main += `module "` + name + `" { source = "` + srv.URL + `/archive/par-` + name + `.tar.gz" }` + "\n"
	}
	srv.AddRegistryVersion("par/x/aws", "1.0.0", srv.URL+"/archive/two-x.zip")
	srv.AddRegistryVersion("par/y/aws", "1.0.0", srv.URL+"/archive/two-y.zip")
	main += `module "x" { source = "` + srv.Host + `/par/x/aws" }` + "\n"
	main += `module "y" { source = "` + srv.Host + `/par/y/aws" }` + "\n"
	writeMain(t, root, main)
	var log hookLog
	in := &Installer{Root: root, ModulesDir: ".terraform/modules", Fetcher: NewFetcher(WithHTTPClient(srv.Client)), Hooks: &log}
	man, ds := in.Install(context.Background(), nil)
	if ds.HasErrors() {
		t.Fatal(ds.Error())
	}
	u := srv.URL + "/archive/par-"
	wantLog := hookLog{
		"download a " + u + "a.tar.gz", "install a .terraform/modules/a",
		"download b " + u + "b.tar.gz", "install b .terraform/modules/b",
		"download c " + u + "c.tar.gz", "install c .terraform/modules/c",
		"download c.n " + srv.URL + "/archive/nested.tar.gz", "install c.n .terraform/modules/c.n",
		"download x " + srv.Host + "/par/x/aws 1.0.0", "install x .terraform/modules/x",
		"download y " + srv.Host + "/par/y/aws 1.0.0", "install y .terraform/modules/y",
	}
	if diff := cmp.Diff(wantLog, log); diff != "" {
		t.Errorf("progress -want +got:\n%s", diff)
	}
	if got := held.MaxHeld(); got < 3 {
		t.Errorf("at most %d downloads were in flight at once, want 3", got)
	}
	if got := heldReg.MaxHeld(); got < 2 {
		t.Errorf("at most %d registry packages were in flight at once, want 2", got)
	}
	var keys []string
	for k := range man {
		keys = append(keys, k)
	}
	if len(keys) != 7 {
		t.Errorf("manifest has %d modules, want 7: %v", len(keys), keys)
	}
}

// TestInstallParallelFailure checks that the first failed download
// cancels the others (the server sees a client hang up while it holds
// it) and is the only error reported, and that nothing fetched
// is left behind.
func TestInstallParallelFailure(t *testing.T) {
	srv, _ := startServer(t)
	for _, name := range []string{"hold-a", "hold-b"} {
		srv.AddArchive(t, name, map[string]string{"main.tf": "# " + name + "\n"})
	}
	held := srv.Hold("/archive/hold-", 3) // never filled: only two are asked for
	// m's answer waits until a and b are both in flight, so its failure
	// must cancel them rather than overtake their requests.
	srv.HoldUntil("/archive/missing", held.Holding(2))
	root := t.TempDir()
	writeMain(t, root, `
module "a" { source = "`+srv.URL+`/archive/hold-a.tar.gz" }
module "b" { source = "`+srv.URL+`/archive/hold-b.tar.gz" }
module "m" { source = "`+srv.URL+`/archive/missing.tar.gz" }
`)
	in := &Installer{Root: root, ModulesDir: ".terraform/modules", Fetcher: NewFetcher(WithHTTPClient(srv.Client))}
	_, ds := in.Install(context.Background(), nil)
	if len(ds) != 1 || ds[0].Summary != "Failed to download module" || !strings.Contains(ds[0].Detail, `module "m"`) {
		t.Fatalf("want only module m's download error, got %s", ds.Error())
	}
	// a and b are held until canceled (without cancellation they would
	// wait for the barrier's timeout and get no hang-up).
	for deadline := time.Now().Add(10 * time.Second); held.Abandoned() < 2 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if got := held.Abandoned(); got != 2 {
		t.Errorf("%d held downloads were canceled, want a and b's", got)
	}
	if entries, _ := os.ReadDir(filepath.Join(root, ".terraform", "modules")); len(entries) != 0 {
		t.Errorf("a failed install left %d entries in .terraform/modules", len(entries))
	}
}

func writeMain(t *testing.T, root, main string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, "main.tf"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestInstallParallelSharedPackage checks that of two keys sharing a git
// package, the first in walk order holds the clone (with .git) and the
// other the copy, as a walk one call at a time leaves them, although the
// later key (b, at the top) asks for the package before the earlier one
// (a.x, found only once a is downloaded).
func TestInstallParallelSharedPackage(t *testing.T) {
	srv, repo := startServer(t)
	srv.AddArchive(t, "calls-net", map[string]string{"main.tf": `module "x" { source = "git::` + repo + `?ref=v1" }` + "\n"})
	root := t.TempDir()
	writeMain(t, root, `
module "a" { source = "`+srv.URL+`/archive/calls-net.tar.gz" }
module "b" { source = "git::`+repo+`?ref=v1" }
`)
	in := &Installer{Root: root, ModulesDir: ".terraform/modules", Fetcher: NewFetcher(WithHTTPClient(srv.Client))}
	if _, ds := in.Install(context.Background(), nil); ds.HasErrors() {
		t.Fatal(ds.Error())
	}
	mods := filepath.Join(root, ".terraform", "modules")
	if !isDir(filepath.Join(mods, "a.x", ".git")) {
		t.Error("a.x, first in walk order, does not hold the clone")
	}
	if isDir(filepath.Join(mods, "b", ".git")) {
		t.Error("b holds a clone, want a copy without .git")
	}
	if _, err := os.Stat(filepath.Join(mods, "b", "main.tf")); err != nil {
		t.Errorf("b's copy is incomplete: %v", err)
	}
}

// TestInstallDiscoveryOnce checks that a walk installing several
// registry modules of one host asks for its discovery document once.
func TestInstallDiscoveryOnce(t *testing.T) {
	srv, _ := startServer(t)
	root := t.TempDir()
	writeMain(t, root, `
module "a" {
  source  = "`+srv.Host+`/org/net/aws"
  version = "1.0.0"
}
module "b" {
  source  = "`+srv.Host+`/org/net/aws"
  version = "1.1.0"
}
module "c" {
  source  = "`+srv.Host+`/org/net/aws"
  version = "1.0.0"
}
`)
	in := &Installer{Root: root, ModulesDir: ".terraform/modules", Fetcher: NewFetcher(WithHTTPClient(srv.Client))}
	if _, ds := in.Install(context.Background(), nil); ds.HasErrors() {
		t.Fatal(ds.Error())
	}
	if got := srv.Requests("/.well-known/terraform.json"); got != 1 {
		t.Errorf("the discovery document was asked for %d times, want once", got)
	}
}
