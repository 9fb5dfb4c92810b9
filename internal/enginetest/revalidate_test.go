package enginetest

import (
	"slices"
	"testing"

	"github.com/cairn-iac/cairn/internal/plans"
)

// TestApplyRevalidates: a value known only during apply is validated by
// the provider before it is sent, as Terraform 1.5.7 re-validates the final
// configuration (ValidateResourceConfig, ValidateDataResourceConfig). The
// empty name below is unknown while planning, so the validator cannot
// refuse it then; in apply the validator's error stops the create, which
// never reaches the provider's API, and only that resource's dependents.
func TestApplyRevalidates(t *testing.T) {
	h, ds := New(map[string]string{"main.tf": `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" {
  name = substr(test_thing.a.id, 0, 0)
}
resource "test_thing" "after_b" { name = test_thing.b.id }
data "test_info" "d" {
  input = substr(test_thing.a.id, 0, 0)
}
resource "test_thing" "c" { name = "c" }
`})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	tp := &TestProvider{}
	h.WithTestProvider(tp)
	p, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatalf("the name is unknown while planning, so valid: %s", ds)
	}
	ds = h.Apply(p)
	wantDiag(t, ds, "Invalid name", "main.tf:4:10")
	wantDiag(t, ds, "Invalid input", "main.tf:8:11")
	for _, entry := range tp.Log {
		if entry == "apply  create" || entry == "read " {
			t.Errorf("an invalid configuration reached the provider: %q", tp.Log)
		}
	}
	for _, want := range []string{"apply a create", "apply c create"} {
		if !slices.Contains(tp.Log, want) {
			t.Errorf("log %q lacks %q: independent resources are still created", tp.Log, want)
		}
	}
	for _, addr := range []string{"test_thing.b", "test_thing.after_b"} {
		if h.State.ResourceInstance(mustAddr(addr)) != nil {
			t.Errorf("%s is in state", addr)
		}
	}
}
