package command

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/testproviders"
)

// BenchmarkInitModules runs init on a configuration of six remote module
// calls (two git packages, one used twice; a nested archive; a zip
// subdirectory; a registry module) from the loopback HTTPS server, each
// op in a fresh directory: Cairn in-process, and OpenTofu 1.12.6 and
// Terraform 1.5.7 ($CAIRN_TOFU, $CAIRN_TERRAFORM; skipped when absent)
// as processes. It reports the server's GET requests per init.
//
//	go test -run '^$' -bench InitModules -benchtime 5x ./internal/command/
func BenchmarkInitModules(b *testing.B) {
	srv := startModuleServer(b)
	for _, kv := range srv.Env() {
		k, v, _ := strings.Cut(kv, "=")
		b.Setenv(k, v)
	}
	main := os.Expand(`
module "net" {
  source = "git::$GIT_URL/net.git?ref=v1"
  name   = "a"
}
module "net2" {
  source = "git::$GIT_URL/net.git?ref=v1"
  name   = "b"
}
module "shallow" {
  source = "git::$GIT_URL/net.git//sub?ref=v1&depth=1"
}
module "zipped" {
  source = "$SRV_URL/archive/leaf.zip//inner"
}
module "reg" {
  source  = "$SRV_HOST/org/leaf/aws"
  version = "~> 1.0"
}
`, func(k string) string {
		return map[string]string{"GIT_URL": srv.URL + "/git", "SRV_URL": srv.URL, "SRV_HOST": srv.Host}[k]
	})
	gets := func() int {
		return srv.Requests("/git/net.git/info/refs") + srv.Requests("/archive/leaf.zip") + srv.Requests("/archive/leaf.tar.gz")
	}
	fresh := func(b *testing.B) string {
		dir := b.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(main), 0o644); err != nil {
			b.Fatal(err)
		}
		return dir
	}
	tools := map[string]func(b *testing.B, dir string){
		"cairn": func(b *testing.B, dir string) {
			var out, errOut bytes.Buffer
			if code := Run([]string{"-chdir=" + dir, "init", "-no-color"}, Streams{Stdout: &out, Stderr: &errOut}); code != 0 {
				b.Fatalf("cairn init: %s", errOut.String())
			}
		},
	}
	if tofu, ok := testproviders.OpenTofu(); ok {
		tools["tofu"] = func(b *testing.B, dir string) { runTool(b, tofu, dir) }
	}
	if tf := terraformBinary(); tf != "" {
		tools["terraform"] = func(b *testing.B, dir string) { runTool(b, tf, dir) }
	}
	for _, name := range []string{"cairn", "tofu", "terraform"} {
		run, ok := tools[name]
		if !ok {
			continue
		}
		b.Run(name, func(b *testing.B) {
			before := gets()
			for b.Loop() {
				run(b, fresh(b))
			}
			b.ReportMetric(float64(gets()-before)/float64(b.N), "GETs/op")
		})
	}
}

func runTool(b *testing.B, bin, dir string) {
	cmd := exec.Command(bin, "init", "-no-color", "-input=false")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1", "HOME="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%s init: %v\n%s", bin, err, out)
	}
}
