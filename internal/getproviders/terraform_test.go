package getproviders_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/cliconfig"
	"github.com/cairn-iac/cairn/internal/depsfile"
	"github.com/cairn-iac/cairn/internal/getproviders"
)

// terraform157 returns the real Terraform 1.5.7 named by CAIRN_TERRAFORM,
// or skips.
func terraform157(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("CAIRN_TERRAFORM")
	if bin == "" {
		t.Skip("set CAIRN_TERRAFORM to Terraform 1.5.7 to compare with it")
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "Terraform v1.5.7") {
		t.Skipf("%s is not Terraform 1.5.7: %s %v", bin, out, err)
	}
	return bin
}

// TestInitMatchesTerraform runs the real Terraform's init and Cairn's
// packages on the same mirror (unpacked and zip-packed providers, reached
// through a CLI configuration's filesystem_mirror, with and without a
// plugin cache) and compares the lock files byte for byte and the
// installed trees, links included.
func TestInitMatchesTerraform(t *testing.T) {
	bin := terraform157(t)
	if getproviders.CurrentPlatform() != linux {
		t.Skip("the fixture mirror holds linux_amd64 packages")
	}
	for name, cache := range map[string]bool{"mirror": false, "mirror and cache": true} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			mirror := filepath.Join(root, "mirror")
			writeMirror(t, mirror)
			tfDir, tfCache := runTerraformInit(t, bin, root, mirror, cache)
			cairnDir, cairnCache := runCairnInit(t, root, mirror, cache)

			want, err := os.ReadFile(filepath.Join(tfDir, depsfile.FileName))
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(cairnDir, depsfile.FileName))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("lock file: -terraform +cairn\n%s", diff)
			}
			wantTree := tree(t, filepath.Join(tfDir, ".terraform", "providers"), tfCache)
			gotTree := tree(t, filepath.Join(cairnDir, ".terraform", "providers"), cairnCache)
			if len(wantTree) < 2 {
				t.Fatalf("Terraform installed %v, want both packages", wantTree)
			}
			if diff := cmp.Diff(wantTree, gotTree); diff != "" {
				t.Errorf(".terraform/providers: -terraform +cairn\n%s", diff)
			}
			if cache {
				if diff := cmp.Diff(tree(t, tfCache, tfCache), tree(t, cairnCache, cairnCache)); diff != "" {
					t.Errorf("plugin cache: -terraform +cairn\n%s", diff)
				}
			}
		})
	}
}

const initConfig = `terraform {
  required_providers {
    foo = { source = "example.com/test/foo", version = "~> 1.2" }
    bar = { source = "example.com/test/bar", version = ">= 0.1, < 2.0.0" }
  }
}
`

// writeCLIConfig writes a CLI configuration pointing at mirror, with a
// fresh plugin cache directory when cache is set; it returns the file and
// the cache directory ("" without one).
func writeCLIConfig(t *testing.T, dir, mirror string, cache bool) (string, string) {
	t.Helper()
	src := "provider_installation {\n  filesystem_mirror {\n    path = \"" + mirror + "\"\n  }\n}\n"
	cacheDir := ""
	if cache {
		cacheDir = filepath.Join(dir, "cache")
		if err := os.MkdirAll(cacheDir, 0o755); err != nil {
			t.Fatal(err)
		}
		src = "plugin_cache_dir = \"" + cacheDir + "\"\n" + src
	}
	file := filepath.Join(dir, "cli.tfrc")
	writeFile(t, file, src, 0o644)
	return file, cacheDir
}

func runTerraformInit(t *testing.T, bin, root, mirror string, cache bool) (string, string) {
	t.Helper()
	dir := filepath.Join(root, "tf")
	cliFile, cacheDir := writeCLIConfig(t, dir, mirror, cache)
	writeFile(t, filepath.Join(dir, "main.tf"), initConfig, 0o644)
	cmd := exec.Command(bin, "init", "-no-color", "-input=false")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+cliFile, "HOME="+root, "CHECKPOINT_DISABLE=1", "TF_PLUGIN_CACHE_DIR=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("terraform init: %v\n%s", err, out)
	}
	return dir, cacheDir
}

// runCairnInit does what cairn init will do with the three packages.
func runCairnInit(t *testing.T, root, mirror string, cache bool) (string, string) {
	t.Helper()
	dir := filepath.Join(root, "cairn")
	cliFile, _ := writeCLIConfig(t, dir, mirror, cache)
	env := cliconfig.Env{HomeDir: root, Getenv: func(k string) string {
		return map[string]string{"TF_CLI_CONFIG_FILE": cliFile}[k]
	}}
	cfg, diags := cliconfig.Load(env)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	src := getproviders.Source{Methods: cfg.Methods(nil, env, dir), Platform: linux}
	in := getproviders.Installer{TargetDir: filepath.Join(dir, ".terraform", "providers"), CacheDir: cfg.PluginCacheDir}
	locks := depsfile.NewLocks()
	for p, c := range map[addrs.Provider]string{foo: "~> 1.2", bar: ">= 0.1, < 2.0.0"} {
		cs, err := getproviders.ParseConstraints(c)
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
		got, err := in.Install(pkg, nil)
		if err != nil {
			t.Fatal(err)
		}
		locks.SetProvider(p, pkg.Version, cs, []string{got.Hash})
	}
	if diags := depsfile.Save(locks, filepath.Join(dir, depsfile.FileName)); diags.HasErrors() {
		t.Fatal(diags)
	}
	return dir, cfg.PluginCacheDir
}

// tree lists base's contents: paths, "-> target" for links (with the
// cache directory written CACHE, since each tool has its own) and the
// mode for files.
func tree(t *testing.T, base, cacheDir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(base, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(base, path)
		info, err := os.Lstat(path)
		if err != nil {
			return err
		}
		switch {
		case info.Mode()&os.ModeSymlink != 0:
			target, _ := os.Readlink(path)
			if cacheDir != "" {
				target = strings.Replace(target, cacheDir, "CACHE", 1)
			}
			out = append(out, rel+" -> "+target)
		case !d.IsDir():
			out = append(out, rel+" "+info.Mode().String())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
