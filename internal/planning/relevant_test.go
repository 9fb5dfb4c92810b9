package planning_test

import (
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/enginetest"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/google/go-cmp/cmp"
)

// TestRelevantAttributes checks which resource attributes a plan reports
// as referred to by its changes, as Terraform's relevant_attributes.
func TestRelevantAttributes(t *testing.T) {
	const applied = `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = test_thing.a.id }
output "o" { value = test_thing.b.name }`
	cases := map[string]struct {
		reason string
		config string
		mode   plans.Mode
		want   []string
	}{
		"nothing changes": {
			reason: "no change, nothing relevant", config: applied, mode: plans.NormalMode,
		},
		"through a configured attribute": {
			reason: "b changes and refers to a.id; a.id is computed, so the walk stops there",
			config: `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" {
  name = test_thing.a.id
  size = 3
}
output "o" { value = test_thing.b.name }`,
			mode: plans.NormalMode,
			want: []string{`test_thing.a ["id"]`},
		},
		"output through a local": {
			reason: "a changed output refers to b.name through a local; b.name is configured from a.id",
			config: `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = test_thing.a.id }
locals { l = test_thing.b.name }
output "o" { value = "${local.l}!" }`,
			mode: plans.RefreshOnlyMode,
			want: []string{`test_thing.a ["id"]`, `test_thing.b ["name"]`},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := applyThenConfigure(t, &enginetest.TestProvider{}, applied, tc.config)
			p, ds := h.Plan(tc.mode)
			if ds.HasErrors() {
				t.Fatalf("plan: %s", ds)
			}
			var got []string
			for _, ra := range p.RelevantAttributes {
				var path []string
				for _, s := range ra.Attribute {
					path = append(path, string(s))
				}
				got = append(got, ra.Resource+" ["+strings.Join(path, ",")+"]")
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}
