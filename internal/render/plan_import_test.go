package render

import (
	"bytes"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// TestPlanImports follows Terraform 1.5.7's jsonformat rules for imports:
// an import with no other change is shown whole under "will be imported"
// with no legend; one that also changes keeps its usual heading plus
// "(imported from ...)", and shows unchanged attributes too; the summary
// leads with the import count only when something is imported.
func TestPlanImports(t *testing.T) {
	imported := thing(map[string]cty.Value{"id": str("i-1"), "name": str("a")})
	renamed := thing(map[string]cty.Value{"id": str("i-1"), "name": str("b")})
	addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "example_thing", Name: "a"}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
	change := func(action plans.Action, after cty.Value, id string) *plans.ResourceInstanceChange {
		c := &plans.ResourceInstanceChange{
			Addr: addr, Provider: addrs.AbsProviderConfig{Provider: exampleProvider}, Action: action, Before: imported, After: after,
		}
		if id != "" {
			c.Importing = &plans.Importing{ID: id}
		}
		return c
	}
	tests := map[string]struct {
		change *plans.ResourceInstanceChange
		want   string
	}{
		"ImportOnly": {change(plans.NoOp, imported, "i-1"), `
Terraform will perform the following actions:

  # example_thing.a will be imported
    resource "example_thing" "a" {
        id   = "i-1"
        name = "a"
    }

Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.
`},
		"ImportAndUpdate": {change(plans.Update, renamed, "arn:x[1]"), `
Terraform used the selected providers to generate the following execution
plan. Resource actions are indicated with the following symbols:
  ~ update in-place

Terraform will perform the following actions:

  # example_thing.a will be updated in-place
  # (imported from "arn:x[1]")
  ~ resource "example_thing" "a" {
        id   = "i-1"
      ~ name = "a" -> "b"
    }

Plan: 1 to import, 0 to add, 1 to change, 0 to destroy.
`},
		"UpdateWithoutImport": {change(plans.Update, renamed, ""), `
Terraform used the selected providers to generate the following execution
plan. Resource actions are indicated with the following symbols:
  ~ update in-place

Terraform will perform the following actions:

  # example_thing.a will be updated in-place
  ~ resource "example_thing" "a" {
        id   = "i-1"
      ~ name = "a" -> "b"
    }

Plan: 0 to add, 1 to change, 0 to destroy.
`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &plans.Plan{Changes: []*plans.ResourceInstanceChange{tc.change}}
			var got bytes.Buffer
			if err := Plan(&got, p, exampleSchemas(), Options{Width: 78}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
