package testfiles

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/internal/builtin"
	"github.com/cairn-iac/cairn/internal/lang/funcs"
	"github.com/cairn-iac/cairn/internal/modulerun"
	"github.com/cairn-iac/cairn/internal/providers"
)

// deleteLog wraps the real built-in terraform provider and records the
// input of each object it deletes, in order.
type deleteLog struct {
	providers.Interface
	mu      *sync.Mutex
	deleted *[]string
}

func (d deleteLog) ApplyResourceChange(ctx context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	if req.PlannedState.IsNull() && !req.PriorState.IsNull() {
		d.mu.Lock()
		*d.deleted = append(*d.deleted, req.PriorState.GetAttr("input").AsString())
		d.mu.Unlock()
	}
	return d.Interface.ApplyResourceChange(ctx, req)
}

// TestRunFile: runs share their module's state (the second apply of the
// root updates, not creates), a run's module block has a state of its
// own, a failed assert does not stop the file but an error skips the
// runs after it, and the teardown destroys the states the last created
// first.
func TestRunFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("main.tf", `variable "v" { default = "root" }
resource "terraform_data" "r" { input = var.v }
output "id" { value = terraform_data.r.id }
`)
	write("sub/main.tf", `resource "terraform_data" "s" { input = "sub" }
`)
	f, ds := Parse("a.tftest.hcl", []byte(`
run "root" {}
run "sub" {
  module { source = "./sub" }
}
run "root_again" {
  variables { v = "root" }
  assert {
    condition     = output.id == run.root.id
    error_message = "the object was replaced"
  }
}
run "false" {
  assert {
    condition     = output.id == "x"
    error_message = "fails"
  }
}
run "broken" {
  assert {
    condition     = output.nope == "x"
    error_message = "errors"
  }
}
run "skipped" {
  assert {
    condition     = output.id != ""
    error_message = "unreachable"
  }
}
`))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	var mu sync.Mutex
	var deleted []string
	reg := providers.Registry{builtin.TerraformProviderAddr: func() (providers.Interface, error) {
		tp := builtin.NewTerraformProvider()
		return deleteLog{Interface: tp, mu: &mu, deleted: &deleted}, nil
	}}
	r := &Runner{Dir: dir, Funcs: funcs.Table(dir), Options: modulerun.Options{Providers: reg}}
	res := r.RunFile(context.Background(), f)
	want := []Status{Pass, Pass, Pass, Fail, Error, Skip}
	for i, rr := range res.Runs {
		if rr.Status != want[i] {
			t.Errorf("run %q: %s, want %s (%v)", rr.Run.Name, rr.Status, want[i], rr.Diags)
		}
	}
	if res.Status != Error {
		t.Errorf("file status %s, want error", res.Status)
	}
	if len(deleted) != 2 || deleted[0] != "sub" || deleted[1] != "root" {
		t.Errorf("teardown deleted %v, want [sub root]", deleted)
	}
	if len(res.Leftover) != 0 || res.Diags.HasErrors() {
		t.Errorf("teardown left %v: %v", res.Leftover, res.Diags)
	}
}
