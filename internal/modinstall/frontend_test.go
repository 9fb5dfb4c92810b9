package modinstall

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/cairn-iac/cairn/internal/configs"
)

// TestFetchThenInstallChildren is the flow a front end other than init
// follows for a module whose own calls are remote: Fetch the module, run
// an Installer with the module's directory as root, and load it with the
// manifest that returns.
func TestFetchThenInstallChildren(t *testing.T) {
	srv, _ := startServer(t)
	repo := srv.AddGitCommit(t, "parent", map[string]string{
		"main.tf":       "module \"local\" { source = \"./child\" }\nmodule \"remote\" { source = \"" + srv.URL + "/archive/net.zip//sub\" }\n",
		"child/main.tf": "resource \"terraform_data\" \"c\" {}\n",
	}, "v1")
	f := NewFetcher(WithHTTPClient(srv.Client))
	dir, _, err := f.Fetch(context.Background(), "git::"+repo+"?ref=v1", "", filepath.Join(t.TempDir(), "parent"))
	if err != nil {
		t.Fatal(err)
	}
	in := &Installer{Root: dir, ModulesDir: ".terraform/modules", Fetcher: f, Hooks: &hookLog{}}
	man, ds := in.Install(context.Background(), nil)
	if ds.HasErrors() {
		t.Fatal(ds.Error())
	}
	mod, ds := configs.LoadDirInstalled(dir, man.Installed())
	if ds.HasErrors() {
		t.Fatal(ds.Error())
	}
	for name, wantDir := range map[string]string{"local": "child", "remote": ".terraform/modules/remote/sub"} {
		child := mod.ModuleCalls[name].Module
		if child == nil || child.Dir != wantDir {
			t.Errorf("module %s: %+v, want it loaded from %s", name, child, wantDir)
		}
	}
}
