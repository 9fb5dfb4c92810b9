package enginetest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/google/go-cmp/cmp"
)

// checkStatuses lists a plan's check results as "check.NAME status
// [problems]" lines.
func checkStatuses(p *plans.Plan) []string {
	var out []string
	for _, c := range p.Checks {
		s := c.Addr.String() + " " + c.Status.String()
		if len(c.Problems) > 0 {
			s += " [" + strings.Join(c.Problems, "; ") + "]"
		}
		out = append(out, s)
	}
	return out
}

// TestCheckBlocks follows check blocks through plan and apply as
// Terraform 1.5.7 runs them: assertions are warnings, decided after
// planning and again after apply; the scoped data source is read while
// planning and again during apply, after every managed resource, and its
// failures are warnings too.
func TestCheckBlocks(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.tfstate")
	cases := map[string]struct {
		reason      string
		src         string
		mode        plans.Mode
		wantPlan    []string
		wantActions []string
		wantChecks  []string
		// wantPrior, when set, lists the objects of the plan's refreshed
		// state.
		wantPrior []string
		// wantApply and wantLog are checked when the plan has no errors;
		// the log is in call order.
		wantApply []string
		wantLog   []string
	}{
		"AssertionPasses": {
			src: `
resource "test_thing" "a" { name = "a" }
check "c" {
  assert {
    condition     = test_thing.a.name == "a"
    error_message = "name is not a."
  }
}`,
			wantActions: []string{"test_thing.a create"},
			wantChecks:  []string{"check.c pass"},
			wantLog:     []string{"apply a create"},
		},
		"FalseAssertionIsAWarning": {
			reason: "a failed check reports, in plan and again after apply, but stops nothing",
			src: `
resource "test_thing" "a" { name = "a" }
check "c" {
  assert {
    condition     = test_thing.a.name == "b"
    error_message = "name is ${test_thing.a.name}."
  }
}`,
			wantPlan:    []string{"warning Check block assertion failed at main.tf:5:21: name is a."},
			wantActions: []string{"test_thing.a create"},
			wantChecks:  []string{"check.c fail [name is a.]"},
			wantApply:   []string{"warning Check block assertion failed at main.tf:5:21: name is a."},
			wantLog:     []string{"apply a create"},
		},
		"UnknownAssertionIsDecidedInApply": {
			src: `
resource "test_thing" "a" { name = "a" }
check "c" {
  assert {
    condition     = test_thing.a.id == "nope"
    error_message = "id is ${test_thing.a.id}."
  }
}`,
			wantPlan: []string{"warning Check block assertion known after apply at main.tf:5:21: " +
				"The condition could not be evaluated at this time, a result will be known when this plan is applied."},
			wantActions: []string{"test_thing.a create"},
			wantChecks:  []string{"check.c unknown"},
			wantApply:   []string{"warning Check block assertion failed at main.tf:5:21: id is thing-1."},
			wantLog:     []string{"apply a create"},
		},
		"InvalidConditionIsAnError": {
			src: `
resource "test_thing" "a" { name = "a" }
check "c" {
  assert {
    condition     = test_thing.a.name
    error_message = "m"
  }
}`,
			wantPlan:    []string{"error Invalid condition result at main.tf:5:21: Invalid condition result value: a bool is required."},
			wantActions: []string{"test_thing.a create"},
			wantChecks:  []string{"check.c error"},
		},
		"ScopedDataReadInPlanAndAgainAfterResources": {
			reason: "the read in apply waits for every managed resource, though nothing orders them by reference",
			src: `
resource "test_thing" "a" { name = "a" }
check "c" {
  data "test_info" "i" { input = "x" }
  assert {
    condition     = data.test_info.i.result == "read:x"
    error_message = "result is ${data.test_info.i.result}."
  }
}`,
			wantActions: []string{"data.test_info.i read read_because_check_nested", "test_thing.a create"},
			wantChecks:  []string{"check.c pass"},
			wantPrior:   []string{"data.test_info.i ready"},
			wantLog:     []string{"read x", "apply a create", "read x"},
		},
		"ScopedDataWithUnknownConfig": {
			src: `
resource "test_thing" "a" { name = "a" }
check "c" {
  data "test_info" "i" { input = test_thing.a.id }
  assert {
    condition     = data.test_info.i.result == "read:thing-1"
    error_message = "result is ${data.test_info.i.result}."
  }
}`,
			wantPlan: []string{"warning Check block assertion known after apply at main.tf:6:21: " +
				"The condition could not be evaluated at this time, a result will be known when this plan is applied."},
			wantActions: []string{"data.test_info.i read read_because_config_unknown", "test_thing.a create"},
			wantChecks:  []string{"check.c unknown"},
			wantLog:     []string{"apply a create", "read thing-1"},
		},
		"ScopedDataFailureIsAWarning": {
			reason: "the check fails with the read's problem and its assertions are not evaluated",
			src: `
resource "test_thing" "a" { name = "a" }
check "c" {
  data "terraform_remote_state" "s" {
    backend = "local"
    config  = { path = "` + filepath.ToSlash(missing) + `" }
  }
  assert {
    condition     = data.terraform_remote_state.s.outputs != null
    error_message = "no outputs."
  }
}`,
			wantPlan: []string{"warning Unable to find remote state at main.tf:4:37: " +
				"No stored state was found for the given workspace in the given backend."},
			wantActions: []string{"data.terraform_remote_state.s read read_because_check_nested", "test_thing.a create"},
			wantChecks: []string{"check.c fail [Unable to find remote state: " +
				"No stored state was found for the given workspace in the given backend.]"},
			wantApply: []string{"warning Unable to find remote state at main.tf:4:37: " +
				"No stored state was found for the given workspace in the given backend."},
			wantLog: []string{"apply a create"},
		},
		"ReferenceToScopedResource": {
			src: `
check "c" {
  data "test_info" "i" { input = "x" }
  assert {
    condition     = data.test_info.i.result == "read:x"
    error_message = "m"
  }
}
output "o" { value = data.test_info.i.result }`,
			wantPlan: []string{"error Reference to scoped resource at main.tf:9:22: " +
				`The referenced data resource "test_info" "i" is not available from this context.`},
		},
		"AnotherChecksScopedResource": {
			reason: "a scoped data source is private to its own check, not to checks in general",
			src: `
check "c" {
  data "test_info" "i" { input = "x" }
  assert {
    condition     = data.test_info.i.result == "read:x"
    error_message = "m"
  }
}
check "d" {
  assert {
    condition     = data.test_info.i.result == "read:x"
    error_message = "m"
  }
}`,
			wantPlan: []string{"error Reference to scoped resource at main.tf:11:21: " +
				`The referenced data resource "test_info" "i" is not available from this context.`},
		},
		"RefreshOnlyStoresScopedData": {
			reason: "a refresh-only plan plans no read, but records what it read in state, as Terraform does",
			src: `
check "c" {
  data "test_info" "i" { input = "x" }
  assert {
    condition     = data.test_info.i.result == "read:x"
    error_message = "m"
  }
}`,
			mode:       plans.RefreshOnlyMode,
			wantChecks: []string{"check.c pass"},
			wantPrior:  []string{"data.test_info.i ready"},
			wantLog:    []string{"read x"},
		},
		"NotEvaluatedInDestroyPlans": {
			src: `
resource "test_thing" "a" { name = "a" }
check "c" {
  assert {
    condition     = test_thing.a.name == "b"
    error_message = "m"
  }
}`,
			mode: plans.DestroyMode,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tp := &TestProvider{}
			h := newTestHarness(t, tc.src, tp)
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
			if diff := cmp.Diff(tc.wantChecks, checkStatuses(p)); diff != "" {
				t.Errorf("%s\ncheck results -want +got:\n%s", tc.reason, diff)
			}
			if tc.wantPrior != nil {
				if diff := cmp.Diff(tc.wantPrior, stateObjects(p.PriorState)); diff != "" {
					t.Errorf("%s\nrefreshed state -want +got:\n%s", tc.reason, diff)
				}
			}
			if ds.HasErrors() {
				return
			}
			ds = h.Apply(p)
			if diff := cmp.Diff(tc.wantApply, conditionDiags(ds)); diff != "" {
				t.Errorf("%s\napply diagnostics -want +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.wantLog, tp.Log); diff != "" {
				t.Errorf("%s\nprovider calls -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
