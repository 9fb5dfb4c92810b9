package command

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/modinstall"
	"github.com/google/go-cmp/cmp"
)

// TestStaticModulesInstall installs, with the real static scope, a tree
// whose sibling calls and their children take their sources from
// variables passed down the tree: the installer resolves siblings in
// parallel (run with -race), and each source comes from its own caller's
// values. The loader then finds the same modules.
func TestStaticModulesInstall(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"main.tf": `variable "kind" {
  default = "x"
  const   = true
}
locals { base = "./mods" }
` + siblingCalls(8),
		"mods/mid/main.tf": `variable "kind" {
  type  = string
  const = true
}
module "leaf" {
  source = "./leaf_${var.kind}"
}
`,
		"mods/mid/leaf_x/main.tf": `output "o" { value = "x" }` + "\n",
	}
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m := &Meta{Dir: dir, Streams: Streams{Now: time.Now, Getenv: func(string) string { return "" }, Environ: func() []string { return nil }}.withDefaults()}
	in := &modinstall.Installer{Root: dir, ModulesDir: ".terraform/modules", Static: m.staticModules()}
	man, ds := in.Install(context.Background(), nil)
	if ds.HasErrors() {
		t.Fatal(ds.Error())
	}
	var got []string
	for key, rec := range man {
		if strings.HasSuffix(key, ".leaf") {
			got = append(got, rec.Dir)
		}
	}
	if len(got) != 8 {
		t.Fatalf("installed %d leaf modules, want 8: %v", len(got), got)
	}
	for _, d := range got {
		if d != "mods/mid/leaf_x" {
			t.Errorf("leaf installed from %q, want mods/mid/leaf_x", d)
		}
	}
	inst := man.Installed()
	inst.Static = m.staticModules()
	cfg, ds := configs.LoadDirInstalled(dir, inst)
	if ds.HasErrors() {
		t.Fatal(ds.Error())
	}
	if diff := cmp.Diff("mods/mid/leaf_x", cfg.ModuleCalls["m0"].Module.ModuleCalls["leaf"].Module.Dir); diff != "" {
		t.Errorf("loaded leaf directory (-want +got):\n%s", diff)
	}
}

// siblingCalls writes n calls of ./mods/mid, each passing var.kind.
func siblingCalls(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "module \"m%d\" {\n  source = \"${local.base}/mid\"\n  kind   = var.kind\n}\n", i)
	}
	return b.String()
}
