package command

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/enginetest"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/google/go-cmp/cmp"
)

// graphConfigV1 is applied first; graphConfigV2 is what the graphs are
// drawn of. Between them test_thing.cbd is replaced (create before
// destroy), test_thing.gone removed (a delete), a key added to a for_each
// and a module's resource changed. The keys hold quotes, brackets, "<",
// "&" and "#", which each format must escape. Two provider
// configurations, a module with its own resources and outputs, a local and
// root outputs make every kind of node.
const graphConfigV1 = `
provider "test" {}
provider "test" {
  alias = "west"
}
variable "generation" {
  default = "1"
}
locals {
  keys = toset(["a", "b\"quoted", "c[0]"])
}
resource "test_thing" "keyed" {
  for_each = local.keys
  name     = each.key
}
resource "test_thing" "counted" {
  count    = 2
  provider = test.west
  name     = "c-${count.index}"
}
resource "test_thing" "cbd" {
  name        = "cbd"
  replace_key = var.generation
  lifecycle {
    create_before_destroy = true
  }
}
resource "test_thing" "gone" {
  name = "gone"
}
module "net" {
  source = "./net"
  prefix = test_thing.cbd.id
}
output "net_id" {
  value = module.net.id
}
`

// graphConfigV2 is graphConfigV1 after the changes.
func graphConfigV2() string {
	return strings.NewReplacer(
		`default = "1"`, `default = "2"`,
		`toset(["a", "b\"quoted", "c[0]"])`, `toset(["a", "b\"quoted", "c[0]", "d e"])`,
		"resource \"test_thing\" \"gone\" {\n  name = \"gone\"\n}\n", "",
	).Replace(graphConfigV1)
}

const graphModule = `
variable "prefix" {
  type = string
}
resource "test_thing" "inner" {
  for_each = { "x<y" = 1, "a&b #1" = 2 }
  name     = "${var.prefix}-${each.key}"
}
output "id" {
  value = test_thing.inner["x<y"].id
}
`

// TestGraphFormats draws every graph type `cairn graph` has in every
// format and compares each with its golden file under testdata/graph
// (rewritten with -update). The Mermaid goldens are parsed by Mermaid
// itself in internal/graphfmt's TestMermaidGoldensParse.
func TestGraphFormats(t *testing.T) {
	dir := t.TempDir()
	writeGraphFiles(t, dir, graphConfigV1)
	tp := &enginetest.TestProvider{}
	cairn := graphRunner(t, dir, providers.Registry{enginetest.TestProviderAddr: func() (providers.Interface, error) { return tp, nil }})
	cairn("init")
	cairn("apply", "-auto-approve")
	writeGraphFiles(t, dir, graphConfigV2())
	// The saved plan also replaces a keyed instance on request.
	cairn("plan", "-out=tfplan", `-replace=test_thing.keyed["b\"quoted"]`)
	graphs := []struct {
		name string
		args []string
	}{
		{"plan", nil},
		{"apply", []string{"-type=apply"}},
		{"plan-destroy", []string{"-type=plan-destroy"}},
		{"plan-refresh-only", []string{"-type=plan-refresh-only"}},
		{"planfile", []string{"-plan=tfplan"}},
	}
	for _, g := range graphs {
		for _, format := range []struct{ flag, ext string }{{"", "dot"}, {"-format=dot", "dot"}, {"-format=mermaid", "mmd"}} {
			args := append([]string{"graph"}, g.args...)
			if format.flag != "" {
				args = append(args, format.flag)
			}
			got := cairn(args...)
			checkGolden(t, filepath.Join("testdata", "graph", g.name+"."+format.ext), got)
		}
	}
}

func writeGraphFiles(t *testing.T, dir, main string) {
	t.Helper()
	files := map[string]string{"main.tf": main, "net/main.tf": graphModule}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// graphRunner returns a func that runs cairn in dir with the providers,
// fails the test unless it exits 0, and returns what it printed.
func graphRunner(t *testing.T, dir string, reg providers.Registry) func(args ...string) string {
	env := map[string]string{"CHECKPOINT_DISABLE": "1"}
	return func(args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := Run(append([]string{"-chdir=" + dir}, args...), Streams{
			Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
			Getenv:    func(k string) string { return env[k] },
			Environ:   func() []string { return []string{"CHECKPOINT_DISABLE=1"} },
			Providers: reg,
		})
		if code != 0 {
			t.Fatalf("cairn %s: exit code %d\n%s%s", strings.Join(args, " "), code, stdout.String(), stderr.String())
		}
		return stdout.String()
	}
}

// checkGolden compares got with the golden file, rewriting it first when
// -update is given.
func checkGolden(t *testing.T, golden, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%s (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s: -want +got:\n%s", golden, diff)
	}
}

// TestGraphFormatInvalid checks that an unknown format fails before any
// work, naming the formats there are.
func TestGraphFormatInvalid(t *testing.T) {
	for _, args := range [][]string{{"graph", "-format=svg"}, {"graph", "-format=svg", "-plan=missing"}, {"graph", "-format=", "-type=apply"}} {
		var stdout, stderr bytes.Buffer
		code := Run(append([]string{"-chdir=" + t.TempDir()}, args...), Streams{Stdout: &stdout, Stderr: &stderr,
			Getenv: func(string) string { return "" }, Environ: func() []string { return nil }})
		if code != 1 {
			t.Errorf("cairn %s: exit code %d, want 1", strings.Join(args, " "), code)
		}
		if stdout.Len() != 0 {
			t.Errorf("cairn %s printed to stdout:\n%s", strings.Join(args, " "), stdout.String())
		}
		for _, want := range []string{"Invalid graph format", `"dot" or "mermaid"`} {
			if !strings.Contains(stderr.String(), want) {
				t.Errorf("cairn %s: stderr lacks %q:\n%s", strings.Join(args, " "), want, stderr.String())
			}
		}
	}
}
