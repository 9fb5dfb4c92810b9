package testfiles

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/internal/builtin"
	"github.com/cairn-iac/cairn/internal/lang/funcs"
	"github.com/cairn-iac/cairn/internal/modulerun"
	"github.com/cairn-iac/cairn/internal/providers"
)

// runFixture writes files into a temporary directory and runs the test
// file src against it with the real built-in provider, logging what the
// real provider deletes.
func runFixture(t *testing.T, files map[string]string, src string) (*FileResult, []string) {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, ds := Parse("a.tftest.hcl", []byte(src))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	var mu sync.Mutex
	var deleted []string
	reg := providers.Registry{builtin.TerraformProviderAddr: func() (providers.Interface, error) {
		return deleteLog{Interface: builtin.NewTerraformProvider(), mu: &mu, deleted: &deleted}, nil
	}}
	r := &Runner{Dir: dir, Funcs: funcs.Table(dir), Options: modulerun.Options{Providers: reg}}
	return r.RunFile(context.Background(), f), deleted
}

func wantStatuses(t *testing.T, res *FileResult, want ...Status) {
	t.Helper()
	for i, rr := range res.Runs {
		if i < len(want) && rr.Status != want[i] {
			t.Errorf("run %q: %s, want %s (%v)", rr.Run.Name, rr.Status, want[i], rr.Diags)
		}
	}
	if res.Diags.HasErrors() || len(res.Leftover) > 0 {
		t.Errorf("teardown: %v, left %v", res.Diags, res.Leftover)
	}
}

// TestStateKey: runs with the same state_key share a state whatever
// module they run (the second plans the root against the object the
// first created, which its moved block keeps); a run without a key has
// the module's own; the teardown destroys every state with the module
// of the run that last applied it.
func TestStateKey(t *testing.T) {
	res, deleted := runFixture(t, map[string]string{
		"main.tf": `resource "terraform_data" "renamed" { input = "root" }
moved {
  from = terraform_data.original
  to   = terraform_data.renamed
}
output "id" { value = terraform_data.renamed.id }
`,
		"old/main.tf": `resource "terraform_data" "original" { input = "old" }
output "id" { value = terraform_data.original.id }
`,
	}, `
run "old" {
  state_key = "k"
  module { source = "./old" }
}
run "upgrade" {
  state_key = "k"
  assert {
    condition     = output.id == run.old.id
    error_message = "replaced"
  }
}
run "own" {
  assert {
    condition     = output.id != run.old.id
    error_message = "shared"
  }
}
`)
	wantStatuses(t, res, Pass, Pass, Pass)
	sort.Strings(deleted)
	if len(deleted) != 2 || deleted[0] != "root" || deleted[1] != "root" {
		t.Errorf("teardown deleted %v, want both states' objects (input root, after the upgrade)", deleted)
	}
}

// TestMockAliasAndOverrides: an aliased mock_provider serves only its
// configuration; a run's providers argument gives the module's default
// configuration the mock; overrides of one instance beat the resource's,
// and a run's beat the file's. Nothing mocked reaches the real provider,
// teardown included.
func TestMockAliasAndOverrides(t *testing.T) {
	res, deleted := runFixture(t, map[string]string{
		"main.tf": `provider "terraform" {
  alias = "x"
}
resource "terraform_data" "real" { input = "r" }
resource "terraform_data" "mocked" {
  provider = terraform.x
  input    = "m"
}
resource "terraform_data" "n" {
  count = 2
  input = count.index
}
`,
	}, `
mock_provider "terraform" {
  alias = "x"
  mock_resource "terraform_data" {
    defaults = { output = "fake" }
  }
  override_resource {
    target = terraform_data.mocked
    values = { output = "mock-override" }
  }
}
override_resource {
  target = terraform_data.n
  values = { output = "file" }
}
run "alias" {
  override_resource {
    target = terraform_data.n[1]
    values = { output = "run-1" }
  }
  assert {
    condition     = terraform_data.mocked.output == "mock-override" && terraform_data.real.output == "r"
    error_message = "alias"
  }
  assert {
    condition     = terraform_data.n[0].output == "file" && terraform_data.n[1].output == "run-1"
    error_message = "instances"
  }
}
run "mapped" {
  state_key = "mapped"
  providers = { terraform = terraform.x }
  assert {
    condition     = terraform_data.real.output == "fake" && terraform_data.mocked.output == "m"
    error_message = "mapped"
  }
}
`)
	wantStatuses(t, res, Pass, Pass)
	sort.Strings(deleted)
	if len(deleted) != 2 || deleted[0] != "m" || deleted[1] != "r" {
		t.Errorf("the real provider deleted %v, want [m r]: terraform_data.real of the first state and terraform_data.mocked of the second", deleted)
	}
}
