package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/getproviders"
	"github.com/cairn-iac/cairn/internal/testproviders"
	"github.com/cairn-iac/cairn/internal/testprovsrv"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestProviderRegistryScripts runs the scripts of testdata/provscript
// against one loopback provider registry and network mirror (HTTPS with
// a test CA, SHA256SUMS signed by a key made here) serving the real
// hashicorp/random plugin: Cairn, and OpenTofu and Terraform where
// installed ([exec:tofu], [exec:terraform]), install from it.
// $REG_HOST names the registry, $MIRROR_URL the mirror, $PLATFORM this
// platform; "subst FILE" expands them in a file. Faulty releases are
// served as tampered/random (zip not the signed one), wrongkey/random
// (signed by a key the registry does not list) and unsigned/random;
// private/random needs the bearer token "s3cret-token"; otherplat/random
// has 3.8.0 for this platform and 3.9.0 for darwin_arm64 only.
// The parallel/ namespace has random, time and local, whose downloads
// the server holds until all three are in flight.
// $LOCAL_URL$WORK/DIR/ publishes a directory the script wrote (a
// providers mirror output) as a network mirror.
func TestProviderRegistryScripts(t *testing.T) {
	bin, ok := testproviders.Binary("random")
	if !ok {
		t.Skip("the random test provider is not built (scripts/build-test-providers.sh)")
	}
	srv := testprovsrv.Start(t)
	plat := getproviders.CurrentPlatform().String()
	others := []string{"darwin_arm64", "windows_amd64"}
	for _, v := range []string{"3.8.0", "3.9.0"} {
		srv.Add(t, testprovsrv.Release{Namespace: "hashicorp", Type: "random", Version: v, Binary: bin, Platform: plat, Others: others})
	}
	srv.Add(t, testprovsrv.Release{Namespace: "private", Type: "random", Version: "3.9.0", Binary: bin, Platform: plat, Others: others})
	srv.RequireToken("private", "s3cret-token")
	srv.Add(t, testprovsrv.Release{Namespace: "otherplat", Type: "random", Version: "3.8.0", Binary: bin, Platform: plat})
	srv.Add(t, testprovsrv.Release{Namespace: "otherplat", Type: "random", Version: "3.9.0", Binary: bin, Platform: "darwin_arm64"})
	for ns, f := range map[string]testprovsrv.Fault{"tampered": testprovsrv.Tampered, "wrongkey": testprovsrv.WrongKey, "unsigned": testprovsrv.Unsigned} {
		srv.Add(t, testprovsrv.Release{Namespace: ns, Type: "random", Version: "3.9.0", Binary: bin, Platform: plat, Others: others, Fault: f})
	}
	addParallelReleases(t, srv, plat)
	root := t.TempDir()
	srv.ServeLocal(root)
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/provscript",
		WorkdirRoot:         root,
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("CHECKPOINT_DISABLE", "1")
			env.Setenv("HOME", env.WorkDir)
			env.Setenv("XDG_CACHE_HOME", filepath.Join(env.WorkDir, ".cache"))
			for _, kv := range srv.Env() {
				k, v, _ := strings.Cut(kv, "=")
				env.Setenv(k, v)
			}
			env.Setenv("REG_HOST", srv.Host)
			env.Setenv("MIRROR_URL", srv.MirrorURL)
			env.Setenv("LOCAL_URL", srv.URL+"/local")
			env.Setenv("PLATFORM", plat)
			setReferenceToolsPath(env)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"subst":   cmdSubst,
			"cmplock": cmdCmpLock,
			"linksto": cmdLinksTo,
		},
	})
}

// addParallelReleases publishes parallel/random, parallel/time and
// parallel/local (the real plugins) behind a barrier of three: an init
// that downloads them one at a time fails.
func addParallelReleases(t *testing.T, srv *testprovsrv.Server, plat string) {
	for _, typ := range []string{"random", "time", "local"} {
		bin, ok := testproviders.Binary(typ)
		if !ok {
			t.Skipf("the %s test provider is not built (scripts/build-test-providers.sh)", typ)
		}
		srv.Add(t, testprovsrv.Release{Namespace: "parallel", Type: typ, Version: testproviders.Versions[typ], Binary: bin, Platform: plat})
	}
	srv.Hold("parallel", 3)
}

// cmdCmpLock compares two lock files after their first line, which names
// the tool that wrote it ("terraform init", "tofu init"): cmplock A B.
func cmdCmpLock(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: cmplock A B")
	}
	body := func(name string) string {
		_, rest, _ := strings.Cut(ts.ReadFile(name), "\n")
		return rest
	}
	a, b := body(args[0]), body(args[1])
	if (a == b) == neg {
		ts.Fatalf("%s and %s after the first line: equal=%v\n%s\n---\n%s", args[0], args[1], a == b, a, b)
	}
}

// cmdLinksTo checks that PATH is a symbolic link to TARGET: linksto PATH
// TARGET.
func cmdLinksTo(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: linksto PATH TARGET")
	}
	got, err := os.Readlink(ts.MkAbs(args[0]))
	if (err == nil && got == args[1]) == neg {
		ts.Fatalf("%s links to %q (%v), want %q", args[0], got, err, args[1])
	}
}
