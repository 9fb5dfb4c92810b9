package testfiles

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/builtin"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lang/funcs"
	"github.com/cairn-iac/cairn/internal/modulerun"
	"github.com/cairn-iac/cairn/internal/providers"
)

// barrier wraps the built-in provider: each create waits until want
// creates are in flight at once, and fails after a while when they never
// are, which runs one after another never are.
type barrier struct {
	providers.Interface
	b *rendezvous
}

type rendezvous struct {
	mu      sync.Mutex
	arrived int
	want    int
	all     chan struct{}
}

func (b barrier) ApplyResourceChange(ctx context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	if req.PriorState.IsNull() && !req.PlannedState.IsNull() {
		b.b.mu.Lock()
		b.b.arrived++
		if b.b.arrived == b.b.want {
			close(b.b.all)
		}
		b.b.mu.Unlock()
		select {
		case <-b.b.all:
		case <-time.After(5 * time.Second):
			return providers.ApplyResourceChangeResponse{Diagnostics: diags.Diagnostics{diags.Errorf("Not in parallel", "The other run's create never came.")}}
		}
	}
	return b.Interface.ApplyResourceChange(ctx, req)
}

// TestParallelRuns: the runs of a parallel group (the test block's
// default, separate state keys, no references between them) create at
// the same time; a run referring to one of them, or without parallel,
// waits; results and the teardown keep the file's order.
func TestParallelRuns(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(`variable "v" { default = "x" }
resource "terraform_data" "a" { input = var.v }
output "a" { value = terraform_data.a.output }
`), 0o644); err != nil {
		t.Fatal(err)
	}
	f, ds := Parse("p.tftest.hcl", []byte(`
test {
  parallel = true
}
run "one" {
  state_key = "one"
  variables { v = "1" }
}
run "two" {
  state_key = "two"
  variables { v = "2" }
}
run "uses_one" {
  state_key = "three"
  variables { v = run.one.a }
  assert {
    condition     = output.a == "1"
    error_message = "wrong"
  }
}
`))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if got := (&fileRun{file: f}).groupEnd(0); got != 2 {
		t.Errorf("the first group ends at %d, want 2 (uses_one refers to one)", got)
	}
	rv := &rendezvous{want: 2, all: make(chan struct{})}
	var mu sync.Mutex
	var deleted []string
	reg := providers.Registry{builtin.TerraformProviderAddr: func() (providers.Interface, error) {
		return barrier{Interface: deleteLog{Interface: builtin.NewTerraformProvider(), mu: &mu, deleted: &deleted}, b: rv}, nil
	}}
	r := &Runner{Dir: dir, Funcs: funcs.Table(dir), Options: modulerun.Options{Providers: reg}}
	res := r.RunFile(context.Background(), f)
	for i, want := range []string{"one", "two", "uses_one"} {
		if rr := res.Runs[i]; rr.Run.Name != want || rr.Status != Pass {
			t.Errorf("run %d: %s %s, want %s pass (%v)", i, rr.Run.Name, rr.Status, want, rr.Diags)
		}
	}
	if len(deleted) != 3 || deleted[0] != "1" || deleted[1] != "2" || deleted[2] != "1" {
		t.Errorf("teardown deleted %v, want [1 2 1]: the last state created first, in the file's order", deleted)
	}
}

// inFlight wraps the built-in provider and records the most creates in
// flight at once.
type inFlight struct {
	providers.Interface
	mu       *sync.Mutex
	now, max *int
}

func (f inFlight) ApplyResourceChange(ctx context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	f.mu.Lock()
	*f.now++
	if *f.now > *f.max {
		*f.max = *f.now
	}
	f.mu.Unlock()
	time.Sleep(20 * time.Millisecond)
	defer func() {
		f.mu.Lock()
		*f.now--
		f.mu.Unlock()
	}()
	return f.Interface.ApplyResourceChange(ctx, req)
}

// TestRunnerParallelism: -parallelism bounds the operations within a
// run's apply (and its teardown): with 1, one create at a time.
func TestRunnerParallelism(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(`resource "terraform_data" "n" {
  count = 4
  input = count.index
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	f, ds := Parse("p.tftest.hcl", []byte(`run "create" {}`))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	tests := map[string]struct {
		parallelism int
		want        func(max int) bool
	}{
		"one":     {parallelism: 1, want: func(max int) bool { return max == 1 }},
		"default": {parallelism: 0, want: func(max int) bool { return max > 1 }},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var mu sync.Mutex
			var now, max int
			reg := providers.Registry{builtin.TerraformProviderAddr: func() (providers.Interface, error) {
				return inFlight{Interface: builtin.NewTerraformProvider(), mu: &mu, now: &now, max: &max}, nil
			}}
			r := &Runner{Dir: dir, Funcs: funcs.Table(dir), Options: modulerun.Options{Providers: reg}, Parallelism: tc.parallelism}
			res := r.RunFile(context.Background(), f)
			if res.Status != Pass {
				t.Fatalf("status %s: %v", res.Status, res.Runs[0].Diags)
			}
			if !tc.want(max) {
				t.Errorf("parallelism %d: at most %d creates and deletes at once", tc.parallelism, max)
			}
		})
	}
}
