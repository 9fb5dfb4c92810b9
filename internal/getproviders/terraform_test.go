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
// through a CLI configuration's filesystem_mirror) and compares the lock
// files byte for byte and the installed trees.
func TestInitMatchesTerraform(t *testing.T) {
	bin := terraform157(t)
	if getproviders.CurrentPlatform() != linux {
		t.Skip("the fixture mirror holds linux_amd64 packages")
	}
	root := t.TempDir()
	mirror := filepath.Join(root, "mirror")
	writeMirror(t, mirror)
	cliFile := filepath.Join(root, "cli.tfrc")
	writeFile(t, cliFile, "provider_installation {\n  filesystem_mirror {\n    path = \""+mirror+"\"\n  }\n}\n", 0o644)
	required := map[addrs.Provider]string{foo: "~> 1.2", bar: ">= 0.1, < 2.0.0"}
	writeFile(t, filepath.Join(root, "tf", "main.tf"), `terraform {
  required_providers {
    foo = { source = "example.com/test/foo", version = "~> 1.2" }
    bar = { source = "example.com/test/bar", version = ">= 0.1, < 2.0.0" }
  }
}
`, 0o644)

	cmd := exec.Command(bin, "init", "-no-color", "-input=false")
	cmd.Dir = filepath.Join(root, "tf")
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+cliFile, "HOME="+root, "CHECKPOINT_DISABLE=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("terraform init: %v\n%s", err, out)
	}

	cairnDir := filepath.Join(root, "cairn")
	env := cliconfig.Env{HomeDir: root, Getenv: func(k string) string {
		return map[string]string{"TF_CLI_CONFIG_FILE": cliFile}[k]
	}}
	cfg, diags := cliconfig.Load(env)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	src := getproviders.Source{Methods: cfg.Methods(nil, env, cairnDir), Platform: linux}
	in := getproviders.Installer{TargetDir: filepath.Join(cairnDir, ".terraform", "providers")}
	locks := depsfile.NewLocks()
	for p, c := range required {
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

	want, err := os.ReadFile(filepath.Join(root, "tf", depsfile.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(locks.Bytes())); diff != "" {
		t.Errorf("lock file: -terraform +cairn\n%s", diff)
	}
	if diff := cmp.Diff(tree(t, filepath.Join(root, "tf")), tree(t, cairnDir)); diff != "" {
		t.Errorf(".terraform/providers: -terraform +cairn\n%s", diff)
	}
}

// tree lists .terraform/providers below dir: paths, with "-> target" for
// links and the mode for files.
func tree(t *testing.T, dir string) []string {
	t.Helper()
	base := filepath.Join(dir, ".terraform", "providers")
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
