package enginetest

import (
	"context"
	"fmt"
	"sort"
	"testing"

	"github.com/cairn-iac/cairn/internal/applying"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lang/funcs"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/google/go-cmp/cmp"
)

// conditionDiags summarizes diagnostics as "error|warning Summary at
// file:line:col: detail" lines, the detail being the author's message for
// a failed check.
func conditionDiags(ds diags.Diagnostics) []string {
	var out []string
	for _, d := range ds {
		sev := "error"
		if d.Severity == diags.Warning {
			sev = "warning"
		}
		at := ""
		if d.Subject != nil {
			at = fmt.Sprintf(" at %s:%d:%d", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column)
		}
		out = append(out, fmt.Sprintf("%s %s%s: %s", sev, d.Summary, at, d.Detail))
	}
	sort.Strings(out)
	return out
}

// stateObjects lists the objects in state as "addr status" lines, deposed
// objects marked, and the root outputs as "output.NAME".
func stateObjects(s *states.State) []string {
	var out []string
	for _, rs := range s.Resources {
		for _, key := range rs.SortedInstanceKeys() {
			is := rs.Instances[key]
			addr := rs.Addr.Instance(key).String()
			if is.Current != nil {
				status := "ready"
				if is.Current.Status == states.ObjectTainted {
					status = "tainted"
				}
				out = append(out, addr+" "+status)
			}
			for dk := range is.Deposed {
				out = append(out, addr+" deposed "+string(dk))
			}
		}
	}
	for name := range s.Outputs {
		out = append(out, "output."+name)
	}
	sort.Strings(out)
	return out
}

// TestConditions follows preconditions and postconditions through each
// point of the lifecycle where Terraform 1.5.7 evaluates them: before an
// instance is planned, on its planned value, again in apply (where
// conditions whose values were unknown are decided), around data source
// reads, on outputs, and not at all in destroy plans.
func TestConditions(t *testing.T) {
	const deferredThing = `
resource "test_thing" "a" {
  name = "a"
  lifecycle {
    postcondition {
      condition     = self.id == "nope"
      error_message = "id is ${self.name == "a" ? "not nope" : self.id}."
    }
  }
}
resource "test_thing" "after" { name = test_thing.a.id }
resource "test_thing" "indep" { name = "indep" }
output "o" { value = test_thing.a.id }
`
	cases := map[string]struct {
		reason string
		// setup is applied first, when set.
		setup       string
		src         string
		mode        plans.Mode
		wantPlan    []string
		wantActions []string
		// wantApply, wantLog and wantState are checked when the plan has
		// no errors: apply's diagnostics, the provider's apply calls and
		// the objects in state afterwards.
		wantApply []string
		wantLog   []string
		wantState []string
	}{
		"PreconditionFailsInPlan": {
			reason: "A failed precondition stops its instance and dependents; independent resources are still planned.",
			src: `
variable "n" { default = 1 }
resource "test_thing" "a" {
  name = "a"
  lifecycle {
    precondition {
      condition     = var.n > 2
      error_message = "n must be more than 2."
    }
  }
}
resource "test_thing" "dep" { name = test_thing.a.id }
resource "test_thing" "indep" { name = "indep" }
`,
			wantPlan:    []string{"error Resource precondition failed at main.tf:7:23: n must be more than 2."},
			wantActions: []string{"test_thing.indep create"},
		},
		"PreconditionPerCountInstance": {
			src: `
resource "test_thing" "a" {
  count = 3
  name  = "a${count.index}"
  lifecycle {
    precondition {
      condition     = count.index != 1
      error_message = "index ${count.index} is refused."
    }
  }
}
`,
			wantPlan:    []string{"error Resource precondition failed at main.tf:7:23: index 1 is refused."},
			wantActions: []string{"test_thing.a[0] create", "test_thing.a[2] create"},
		},
		"PreconditionPerForEachInstance": {
			src: `
resource "test_thing" "a" {
  for_each = { x = 1, y = 5 }
  name     = each.key
  lifecycle {
    precondition {
      condition     = each.value < 3
      error_message = "${each.key} is too big."
    }
  }
}
`,
			wantPlan:    []string{"error Resource precondition failed at main.tf:7:23: y is too big."},
			wantActions: []string{`test_thing.a["x"] create`},
		},
		"PostconditionFailsOnPlannedValue": {
			reason: "self is the planned value; the change stays in the errored plan, as Terraform shows it.",
			src: `
resource "test_thing" "a" {
  name = "a"
  lifecycle {
    postcondition {
      condition     = self.name == "b"
      error_message = "name is ${self.name}."
    }
  }
}
`,
			wantPlan:    []string{"error Resource postcondition failed at main.tf:6:23: name is a."},
			wantActions: []string{"test_thing.a create"},
		},
		"PostconditionDeferredFailsAfterApply": {
			reason: "A postcondition on a computed value is decided after apply: the object stays in state, ready, and its dependents do not run.",
			src:    deferredThing,
			wantActions: []string{
				"test_thing.a create", "test_thing.after create", "test_thing.indep create",
			},
			wantApply: []string{"error Resource postcondition failed at main.tf:6:23: id is not nope."},
			wantLog:   []string{"apply a create", "apply indep create"},
			wantState: []string{"test_thing.a ready", "test_thing.indep ready"},
		},
		"PostconditionPassesAfterApply": {
			src: `
resource "test_thing" "a" {
  name = "a"
  lifecycle {
    postcondition {
      condition     = startswith(self.id, "thing-")
      error_message = "id is ${self.id}."
    }
  }
}
`,
			wantActions: []string{"test_thing.a create"},
			wantLog:     []string{"apply a create"},
			wantState:   []string{"test_thing.a ready"},
		},
		"PreconditionDeferredFailsInApply": {
			reason: "A precondition on a value known only after apply is decided before the instance's final plan; the provider is never asked to create it.",
			src: `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" {
  name = "b"
  lifecycle {
    precondition {
      condition     = test_thing.a.id == "nope"
      error_message = "a's id is ${test_thing.a.id}."
    }
  }
}
`,
			wantActions: []string{"test_thing.a create", "test_thing.b create"},
			wantApply:   []string{"error Resource precondition failed at main.tf:7:23: a's id is thing-1."},
			wantLog:     []string{"apply a create"},
			wantState:   []string{"test_thing.a ready"},
		},
		"PreconditionDeferredKeepsReplacedObject": {
			reason: "When create_before_destroy's create is refused by a precondition, the old object stays current.",
			setup: `
resource "test_thing" "a" {
  name        = "a"
  replace_key = "1"
  lifecycle { create_before_destroy = true }
}
`,
			src: `
resource "test_thing" "other" { name = "other" }
resource "test_thing" "a" {
  name        = "a"
  replace_key = "2"
  lifecycle {
    create_before_destroy = true
    precondition {
      condition     = test_thing.other.id == "nope"
      error_message = "other is ${test_thing.other.id}."
    }
  }
}
`,
			wantActions: []string{"test_thing.a create-then-delete replace_because_cannot_update", "test_thing.other create"},
			wantApply:   []string{"error Resource precondition failed at main.tf:9:23: other is thing-2."},
			wantLog:     []string{"apply other create"},
			wantState:   []string{"test_thing.a ready", "test_thing.other ready"},
		},
		"NoOpDeferredPreconditionFailsInApply": {
			reason: "An instance with nothing to change still has its deferred conditions decided in apply, once what they refer to is applied, as Terraform does.",
			setup: `
resource "terraform_data" "a" { input = "1" }
resource "test_thing" "b" {
  name = "b"
  lifecycle {
    precondition {
      condition     = terraform_data.a.output == "1"
      error_message = "a is ${terraform_data.a.output}."
    }
  }
}
`,
			src: `
resource "terraform_data" "a" { input = "2" }
resource "test_thing" "b" {
  name = "b"
  lifecycle {
    precondition {
      condition     = terraform_data.a.output == "1"
      error_message = "a is ${terraform_data.a.output}."
    }
  }
}
`,
			wantActions: []string{"terraform_data.a update"},
			wantApply:   []string{"error Resource precondition failed at main.tf:7:23: a is 2."},
			wantState:   []string{"terraform_data.a ready", "test_thing.b ready"},
		},
		"NoOpPostconditionSeesObject": {
			setup: `
resource "terraform_data" "a" { input = "1" }
resource "test_thing" "b" {
  name = "b"
  lifecycle {
    postcondition {
      condition     = self.name == terraform_data.a.output || self.size == 1
      error_message = "b is ${self.name}, a is ${terraform_data.a.output}, size is ${self.size}."
    }
  }
}
`,
			src: `
resource "terraform_data" "a" { input = "2" }
resource "test_thing" "b" {
  name = "b"
  lifecycle {
    postcondition {
      condition     = self.name == terraform_data.a.output && self.size == 1
      error_message = "b is ${self.name}, a is ${terraform_data.a.output}, size is ${self.size}."
    }
  }
}
`,
			wantActions: []string{"terraform_data.a update"},
			wantApply:   []string{"error Resource postcondition failed at main.tf:7:23: b is b, a is 2, size is 1."},
			wantState:   []string{"terraform_data.a ready", "test_thing.b ready"},
		},
		"DataConditionsAroundReadInPlan": {
			src: `
data "test_info" "i" {
  input = "x"
  lifecycle {
    precondition {
      condition     = length(var.allowed) > 0
      error_message = "nothing allowed."
    }
    postcondition {
      condition     = contains(var.allowed, self.result)
      error_message = "result ${self.result} is not allowed."
    }
  }
}
variable "allowed" { default = ["y"] }
resource "test_thing" "dep" { name = data.test_info.i.result }
`,
			wantPlan: []string{"error Resource postcondition failed at main.tf:10:23: result read:x is not allowed."},
		},
		"DataPreconditionStopsRead": {
			src: `
variable "allowed" { default = [] }
data "test_info" "i" {
  input = "x"
  lifecycle {
    precondition {
      condition     = length(var.allowed) > 0
      error_message = "nothing allowed."
    }
  }
}
`,
			wantPlan: []string{"error Resource precondition failed at main.tf:7:23: nothing allowed."},
		},
		"DataDeferredPostconditionFailsInApply": {
			reason: "A read deferred to apply has its postconditions decided on the result, and its dependents do not run.",
			src: `
resource "test_thing" "a" { name = "a" }
data "test_info" "i" {
  input = test_thing.a.id
  lifecycle {
    postcondition {
      condition     = self.result == "nope"
      error_message = "result is ${self.result}."
    }
  }
}
resource "test_thing" "dep" { name = data.test_info.i.result }
`,
			wantActions: []string{"data.test_info.i read read_because_config_unknown", "test_thing.a create", "test_thing.dep create"},
			wantApply:   []string{"error Resource postcondition failed at main.tf:7:23: result is read:thing-1."},
			wantLog:     []string{"apply a create", "read thing-1"},
			wantState:   []string{"data.test_info.i ready", "test_thing.a ready"},
		},
		"DataDeferredPreconditionFailsInApply": {
			src: `
resource "test_thing" "a" { name = "a" }
data "test_info" "i" {
  input = test_thing.a.id
  lifecycle {
    precondition {
      condition     = test_thing.a.id == "nope"
      error_message = "a is ${test_thing.a.id}."
    }
  }
}
`,
			wantActions: []string{"data.test_info.i read read_because_config_unknown", "test_thing.a create"},
			wantApply:   []string{"error Resource precondition failed at main.tf:7:23: a is thing-1."},
			wantLog:     []string{"apply a create"},
			wantState:   []string{"test_thing.a ready"},
		},
		"OutputPreconditionFailsInPlan": {
			src: `
variable "n" { default = 1 }
output "o" {
  value = var.n
  precondition {
    condition     = var.n > 1
    error_message = "n is ${var.n}."
  }
}
`,
			wantPlan: []string{"error Module output value precondition failed at main.tf:6:21: n is 1."},
		},
		"OutputPreconditionDeferredFailsInApply": {
			reason: "The output is not recorded when its precondition fails.",
			src: `
resource "test_thing" "a" { name = "a" }
output "o" {
  value = test_thing.a.id
  precondition {
    condition     = test_thing.a.id == "nope"
    error_message = "id is ${test_thing.a.id}."
  }
}
`,
			wantActions: []string{"test_thing.a create"},
			wantApply:   []string{"error Module output value precondition failed at main.tf:6:21: id is thing-1."},
			wantLog:     []string{"apply a create"},
			wantState:   []string{"test_thing.a ready"},
		},
		"DestroyIgnoresConditions": {
			reason: "Destroy plans evaluate no conditions, so a failing one never blocks a destroy.",
			setup: `
resource "test_thing" "a" { name = "a" }
output "o" { value = test_thing.a.id }
`,
			src: `
variable "n" { default = 1 }
resource "test_thing" "a" {
  name = "a"
  lifecycle {
    precondition {
      condition     = var.n > 2
      error_message = "pre."
    }
    postcondition {
      condition     = self.name == var.n
      error_message = "post."
    }
  }
}
output "o" {
  value = test_thing.a.id
  precondition {
    condition     = var.n > 2
    error_message = "output."
  }
}
`,
			mode:        plans.DestroyMode,
			wantActions: []string{"test_thing.a delete"},
			wantLog:     []string{"apply a delete"},
		},
		"UpdateRefusedByPrecondition": {
			setup: `resource "test_thing" "a" { name = "a" }`,
			src: `
variable "allow" { default = false }
resource "test_thing" "a" {
  name = "b"
  lifecycle {
    precondition {
      condition     = var.allow
      error_message = "changes are not allowed."
    }
  }
}
`,
			wantPlan: []string{"error Resource precondition failed at main.tf:7:23: changes are not allowed."},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tp := &TestProvider{}
			state := states.NewState()
			if tc.setup != "" {
				h := newTestHarness(t, tc.setup, tp)
				p, ds := h.Plan(plans.NormalMode)
				if ds.HasErrors() {
					t.Fatalf("setup plan: %s", ds)
				}
				if ds := h.Apply(p); ds.HasErrors() {
					t.Fatalf("setup apply: %s", ds)
				}
				state = h.State
				tp.Log = nil
			}
			h := newTestHarness(t, tc.src, tp)
			h.State = state
			mode := tc.mode
			if mode == 0 {
				mode = plans.NormalMode
			}
			p, ds := h.Plan(mode)
			if diff := cmp.Diff(tc.wantPlan, conditionDiags(ds)); diff != "" {
				t.Errorf("%s\nplan diagnostics -want +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.wantActions, actions(p)); diff != "" {
				t.Errorf("%s\nplanned actions -want +got:\n%s", tc.reason, diff)
			}
			if ds.HasErrors() {
				return
			}
			ds = h.Apply(p)
			if diff := cmp.Diff(tc.wantApply, conditionDiags(ds)); diff != "" {
				t.Errorf("%s\napply diagnostics -want +got:\n%s", tc.reason, diff)
			}
			// Independent operations run in parallel, in any order.
			sort.Strings(tp.Log)
			if diff := cmp.Diff(tc.wantLog, tp.Log); diff != "" {
				t.Errorf("%s\nprovider calls -want +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.wantState, stateObjects(h.State)); diff != "" {
				t.Errorf("%s\nstate -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func newTestHarness(t *testing.T, src string, tp *TestProvider) *Harness {
	t.Helper()
	h, ds := New(map[string]string{"main.tf": src})
	if ds.HasErrors() {
		t.Fatalf("loading configuration: %s", ds)
	}
	return h.WithTestProvider(tp)
}

// TestPostconditionFailureWithAsyncWriter: with a state writer that makes
// records durable later, a postcondition that fails after apply still
// fails its node before its dependents start, and the object is durable
// before it is reported complete.
func TestPostconditionFailureWithAsyncWriter(t *testing.T) {
	h, _ := New(map[string]string{"main.tf": `
resource "terraform_data" "a" {
  input = "a"
  lifecycle {
    postcondition {
      condition     = self.output == "nope"
      error_message = "output is ${self.output}."
    }
  }
}
resource "terraform_data" "b" { input = terraform_data.a.output }
`})
	p, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	ready := make(chan struct{})
	close(ready)
	w := &slowDurableWriter{MemoryWriter: MemoryWriter{State: states.NewState()}, durable: map[string]chan struct{}{
		"terraform_data.a": ready, "terraform_data.b": ready,
	}}
	ds = applying.Apply(context.Background(), applying.Options{
		Plan: p, Config: h.Config, Providers: providers.NewLibrary(h.Providers), Funcs: funcs.Table("."), State: w, Hooks: eventHooks{w: w},
	})
	want := []string{"error Resource postcondition failed at main.tf:6:23: output is a."}
	if diff := cmp.Diff(want, conditionDiags(ds)); diff != "" {
		t.Errorf("apply diagnostics -want +got:\n%s", diff)
	}
	wantEvents := []string{"recorded terraform_data.a", "durable terraform_data.a", "complete terraform_data.a"}
	if diff := cmp.Diff(wantEvents, w.snapshot()); diff != "" {
		t.Errorf("events -want +got:\n%s", diff)
	}
}
