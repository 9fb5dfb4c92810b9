package planning_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/enginetest"
	"github.com/cairn-iac/cairn/internal/graphfmt"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/render"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// graphScenario applies every configuration but the last, then plans the
// last one (in mode) and compares the plan's operation graph with
// testdata/opgraph/NAME.dot.
type graphScenario struct {
	reason  string
	steps   []string
	mode    plans.Mode
	prepare func(h *enginetest.Harness)
}

func TestOperationGraph(t *testing.T) {
	cases := map[string]graphScenario{
		"create": {
			reason: "providers, locals and outputs are nodes; instances wait for their resource's expand node and dependents for its join",
			steps: []string{`
locals { prefix = "x" }
resource "test_thing" "a" {
  count = 2
  name  = "${local.prefix}-${count.index}"
}
resource "test_thing" "b" { name = test_thing.a[0].id }
output "b" { value = test_thing.b.id }`},
		},
		"validation_deferred": {
			reason: "a validation rule unknown while planning is a node after what it refers to, and what reads the variable waits for it",
			steps: []string{`
variable "n" {
  default = "x"
  validation {
    condition     = var.n != test_thing.a.id
    error_message = "n must differ."
  }
}
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = var.n }`},
		},
		"update": {
			steps: []string{
				`resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = test_thing.a.name }`,
				`resource "test_thing" "a" { name = "a2" }
resource "test_thing" "b" { name = test_thing.a.name }`,
			},
		},
		"replace": {
			reason: "delete-then-create is two operations: the create waits for the delete",
			steps: []string{
				`resource "test_thing" "a" {
  name        = "a"
  replace_key = "1"
}
resource "test_thing" "b" { name = test_thing.a.id }`,
				`resource "test_thing" "a" {
  name        = "a"
  replace_key = "2"
}
resource "test_thing" "b" { name = test_thing.a.id }`,
			},
		},
		"create_before_destroy": {
			reason: "the dependency of a create_before_destroy resource is forced to it: depose-and-create, then delete-deposed after the dependents moved",
			steps: []string{
				`resource "test_thing" "a" {
  name        = "a"
  replace_key = "1"
}
resource "test_thing" "b" {
  name        = test_thing.a.id
  replace_key = test_thing.a.replace_key
  lifecycle { create_before_destroy = true }
}`,
				`resource "test_thing" "a" {
  name        = "a"
  replace_key = "2"
}
resource "test_thing" "b" {
  name        = test_thing.a.id
  replace_key = test_thing.a.replace_key
  lifecycle { create_before_destroy = true }
}`,
			},
		},
		"orphans": {
			reason: "deletes run in reverse dependency order, from the dependencies state recorded",
			steps: []string{
				`resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = test_thing.a.id }
resource "test_thing" "c" {
  count = 2
  name  = test_thing.b.id
}`,
				`resource "test_thing" "c" {
  count = 1
  name  = "kept"
}`,
			},
		},
		"deposed": {
			reason: "an object deposed by an earlier run is deleted on its own",
			steps:  []string{`resource "test_thing" "a" { name = "a" }`, `resource "test_thing" "a" { name = "a" }`},
			prepare: func(h *enginetest.Harness) {
				addr, _ := addrs.ParseAbsResourceInstanceStr("test_thing.a")
				cur := h.State.ResourceInstance(addr).Current
				h.State.SetResourceInstanceDeposed(addr, "0000beef", cur, addrs.AbsProviderConfig{Provider: enginetest.TestProviderAddr})
			},
		},
		"data_deferred": {
			reason: "a data source whose configuration is unknown is read during apply, after what it refers to",
			steps: []string{`
resource "test_thing" "a" { name = "a" }
data "test_info" "d" { input = test_thing.a.id }
resource "test_thing" "b" { name = data.test_info.d.result }`},
		},
		"destroy": {
			reason: "destroy mode has no expand, join or output nodes; deletes wait for their dependents' deletes",
			mode:   plans.DestroyMode,
			steps: []string{
				`resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = test_thing.a.id }
output "o" { value = test_thing.b.id }`,
				`resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = test_thing.a.id }
output "o" { value = test_thing.b.id }`,
			},
		},
		"noop": {
			steps: []string{`resource "test_thing" "a" { name = "a" }`, `resource "test_thing" "a" { name = "a" }`},
		},
		"noop_conditions": {
			reason: "a no-op instance with conditions gets a check node after what they refer to, and its dependents wait for it",
			steps: []string{`resource "terraform_data" "a" { input = "1" }
resource "test_thing" "b" {
  name = "b"
  lifecycle {
    precondition {
      condition     = terraform_data.a.output == "1"
      error_message = "a changed."
    }
  }
}
resource "test_thing" "c" { name = test_thing.b.id }`, `resource "terraform_data" "a" { input = "2" }
resource "test_thing" "b" {
  name = "b"
  lifecycle {
    precondition {
      condition     = terraform_data.a.output == "1"
      error_message = "a changed."
    }
  }
}
resource "test_thing" "c" { name = test_thing.b.id }`},
		},
	}
	for name, sc := range cases {
		t.Run(name, func(t *testing.T) {
			p := planScenario(t, sc)
			g := render.OperationGraph(p)
			for _, f := range []struct {
				ext    string
				format graphfmt.Format
			}{{"dot", graphfmt.DOT}, {"mmd", graphfmt.Mermaid}} {
				var b strings.Builder
				if err := graphfmt.Write(&b, g, f.format); err != nil {
					t.Fatal(err)
				}
				checkGraphGolden(t, filepath.Join("testdata", "opgraph", name+"."+f.ext), b.String(), sc.reason)
			}
		})
	}
}

// checkGraphGolden compares got with the golden file, rewriting it first
// when -update is given.
func checkGraphGolden(t *testing.T, golden, got, reason string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%s (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s\n%s: -want +got:\n%s", reason, golden, diff)
	}
}

func planScenario(t *testing.T, sc graphScenario) *plans.Plan {
	t.Helper()
	state := states.NewState()
	for i, src := range sc.steps {
		h, ds := enginetest.New(map[string]string{"main.tf": src})
		if ds.HasErrors() {
			t.Fatalf("step %d: %s", i, ds)
		}
		h.WithTestProvider(&enginetest.TestProvider{})
		h.State = state
		if i < len(sc.steps)-1 {
			p, ds := h.Plan(plans.NormalMode)
			if ds.HasErrors() {
				t.Fatalf("step %d plan: %s", i, ds)
			}
			if ds := h.Apply(p); ds.HasErrors() {
				t.Fatalf("step %d apply: %s", i, ds)
			}
			state = h.State
			continue
		}
		if sc.prepare != nil {
			sc.prepare(h)
		}
		p, ds := h.Plan(sc.mode)
		if ds.HasErrors() {
			t.Fatalf("final plan: %s", ds)
		}
		return p
	}
	return nil
}
