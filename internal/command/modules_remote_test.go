package command

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/testmodsrv"
	"github.com/cairn-iac/cairn/internal/testproviders"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestModuleScripts runs the scripts of testdata/modscript against one
// loopback module server (git smart HTTP, archives, a module registry,
// over HTTPS with a test CA): Cairn, and OpenTofu and Terraform where
// installed ([exec:tofu], [exec:terraform]), install the same modules
// from it. $SRV_URL, $SRV_HOST and $GIT_URL name the server, $HG_URL a
// Mercurial repository served by "hg serve" ([exec:hg]); "subst FILE"
// expands them in a file.
func TestModuleScripts(t *testing.T) {
	srv := startModuleServer(t)
	hgURL := ""
	if _, err := exec.LookPath("hg"); err == nil {
		hgURL = strings.TrimSuffix(testmodsrv.AddHgRepo(t, map[string]string{
			"main.tf":     "resource \"terraform_data\" \"hg\" {}\n",
			"sub/main.tf": "resource \"terraform_data\" \"hgsub\" {}\n",
		}, "v1"), "/")
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/modscript",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("CHECKPOINT_DISABLE", "1")
			env.Setenv("XDG_CACHE_HOME", filepath.Join(env.WorkDir, ".cache"))
			env.Setenv("HOME", env.WorkDir)
			for _, kv := range srv.Env() {
				k, v, _ := strings.Cut(kv, "=")
				env.Setenv(k, v)
			}
			env.Setenv("SRV_URL", srv.URL)
			env.Setenv("SRV_HOST", srv.Host)
			env.Setenv("GIT_URL", srv.URL+"/git")
			env.Setenv("HG_URL", hgURL) // empty without hg: scripts check [exec:hg]
			setReferenceToolsPath(env)
			setPulumiEnv(env)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"subst":      cmdSubst,
			"moduletree": cmdModuleTree,
		},
	})
}

// startModuleServer serves the modules the scripts install: repository
// net (tag v1: a module calling ./sub and, nested, a remote archive),
// archive leaf (.tar.gz, .zip, with a directory inner) and registry
// module org/leaf/aws (1.0.0, 1.1.0 and 2.0.0).
func startModuleServer(t testing.TB) *testmodsrv.Server {
	srv := testmodsrv.Start(t)
	leaf := map[string]string{
		"main.tf":       "resource \"terraform_data\" \"leaf\" { input = \"leaf\" }\noutput \"id\" { value = terraform_data.leaf.id }\n",
		"inner/main.tf": "resource \"terraform_data\" \"inner\" { input = \"inner\" }\n",
	}
	srv.AddArchive(t, "leaf", leaf)
	srv.AddGitCommit(t, "net", map[string]string{
		"main.tf": fmt.Sprintf(`variable "name" { type = string }
resource "terraform_data" "net" { input = var.name }
module "sub" {
  source = "./sub"
}
module "leaf" {
  source = "%s/archive/leaf.zip"
}
output "id" { value = terraform_data.net.id }
`, srv.URL),
		"sub/main.tf":     "resource \"terraform_data\" \"sub\" { input = \"sub\" }\n",
		"escape/main.tf":  "module \"out\" {\n  source = \"../../outside\"\n}\n",
		"README.md":       "net\n",
		"sub/.hidden.txt": "not copied into a second key\n",
	}, "v1")
	srv.AddGitCommit(t, "net", map[string]string{"main.tf": "# v2 has no module\n"}, "v2")
	for _, v := range []string{"1.0.0", "1.1.0", "2.0.0"} {
		srv.AddRegistryVersion("org/leaf/aws", v, srv.URL+"/archive/leaf.tar.gz")
	}
	return srv
}

// cmdSubst expands $NAME and ${NAME} in files from the script's
// environment: subst main.tf.
func cmdSubst(ts *testscript.TestScript, neg bool, args []string) {
	for _, name := range args {
		p := ts.MkAbs(name)
		b, err := os.ReadFile(p)
		ts.Check(err)
		ts.Check(os.WriteFile(p, []byte(os.Expand(string(b), ts.Getenv)), 0o644))
	}
}

// cmdModuleTree writes the files and directories under DIR, one
// relative path a line with each file's size, into OUT: what two tools'
// module installs are compared by. Contents of .git directories are left
// out (a clone's pack files and logs differ by time), the directory
// itself is not: moduletree .terraform/modules tree.txt
func cmdModuleTree(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: moduletree DIR OUT")
	}
	root := ts.MkAbs(args[0])
	var lines []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if strings.Contains(filepath.ToSlash(rel), ".git/") {
			return nil
		}
		if d.IsDir() {
			lines = append(lines, rel+"/")
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		lines = append(lines, fmt.Sprintf("%s %d", rel, info.Size()))
		return nil
	})
	ts.Check(err)
	slices.Sort(lines)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(strings.Join(lines, "\n")+"\n"), 0o644))
}

// setReferenceToolsPath puts OpenTofu and Terraform 1.5.7, when built,
// on a script's PATH ([exec:tofu], [exec:terraform]), for the scripts
// that run them beside Cairn on one loopback server.
func setReferenceToolsPath(env *testscript.Env) {
	path := env.Getenv("PATH")
	if tofu, ok := testproviders.OpenTofu(); ok {
		path = filepath.Dir(tofu) + string(os.PathListSeparator) + path
	}
	if tf := terraformBinary(); tf != "" {
		path = filepath.Dir(tf) + string(os.PathListSeparator) + path
	}
	env.Setenv("PATH", path)
}
