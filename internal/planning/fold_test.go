package planning_test

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/enginetest"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/google/go-cmp/cmp"
)

// TestDiagnosticsInGraphOrder: the plan's diagnostics come in the order of
// the configuration graph's vertices, not the order the vertices finished
// in. terraform_data.a depends on terraform_data.z, so a always finishes
// after z, yet its warning comes first (its vertex is first); while
// vertices appended to shared diagnostics as they finished, z's came
// first. A refresh-only plan reports failed preconditions as warnings, so
// z's failure does not skip a.
func TestDiagnosticsInGraphOrder(t *testing.T) {
	h, ds := enginetest.New(map[string]string{"main.tf": `
variable "ok" { default = false }
resource "terraform_data" "z" {
  input = "z"
  lifecycle {
    precondition {
      condition     = var.ok
      error_message = "z"
    }
  }
}
resource "terraform_data" "a" {
  input = terraform_data.z.input
  lifecycle {
    precondition {
      condition     = var.ok
      error_message = "a"
    }
  }
}
`})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	for _, parallelism := range []int{1, 10} {
		h.Parallelism = parallelism
		_, ds := h.Plan(plans.RefreshOnlyMode)
		var got []string
		for _, d := range ds {
			got = append(got, d.Summary+": "+d.Detail)
		}
		want := []string{"Resource precondition failed: a", "Resource precondition failed: z"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("parallelism %d: diagnostics -want +got\n%s", parallelism, diff)
		}
	}
}

// TestUnchangedObjectDependencies: an object the plan leaves alone carries
// the dependencies it has now in the plan's prior state, as Terraform
// records them, whether they were added, removed or kept.
func TestUnchangedObjectDependencies(t *testing.T) {
	const without = `resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = "b" }`
	const with = `resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" {
  name       = "b"
  depends_on = [test_thing.a]
}`
	tests := map[string]struct {
		steps []string
		want  []string
	}{
		"added":   {steps: []string{without, with}, want: []string{"test_thing.a"}},
		"removed": {steps: []string{with, without}},
		"kept":    {steps: []string{with, with}, want: []string{"test_thing.a"}},
	}
	b, _ := addrs.ParseAbsResourceInstanceStr("test_thing.b")
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := planScenario(t, graphScenario{steps: tc.steps})
			for _, c := range p.Changes {
				if c.Addr.Equal(b) && c.Action != plans.NoOp {
					t.Fatalf("test_thing.b is planned %s, want no change", c.Action)
				}
			}
			var got []string
			for _, d := range p.PriorState.ResourceInstance(b).Current.Dependencies {
				got = append(got, d.String())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("dependencies in the prior state -want +got\n%s", diff)
			}
		})
	}
}
