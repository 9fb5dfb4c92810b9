package configs

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/google/go-cmp/cmp"
)

// TestBuiltinInRequiredProviders pins that a module may declare the
// built-in provider, as it must to call its functions (Terraform 1.8,
// OpenTofu 1.7), while "terraform" stays reserved for it.
func TestBuiltinInRequiredProviders(t *testing.T) {
	m, ds := loadStrings(map[string]string{"main.tf": `terraform {
  required_providers {
    terraform = { source = "terraform.io/builtin/terraform" }
  }
}`})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if got := m.RequiredProviders["terraform"].Source; got != addrs.NewBuiltInProvider("terraform") {
		t.Errorf("source %s", got)
	}
	for _, src := range []string{`"~> 1.0"`, `{ source = "hashicorp/terraform" }`, `{ version = "1.0" }`} {
		_, ds := loadStrings(map[string]string{"main.tf": `terraform {
  required_providers {
    terraform = ` + src + `
  }
}`})
		if diff := cmp.Diff([]diagWant{errAt("Invalid provider local name", "main.tf:3:5")}, summarizeDiags(ds)); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", src, diff)
		}
	}
}

// TestNamespacedCallsCollected pins that loading records every
// namespaced function call, in source order, with its place, and no
// plain call.
func TestNamespacedCallsCollected(t *testing.T) {
	m, ds := loadStrings(map[string]string{
		"b.tf": `locals { x = core::upper(provider::terraform::encode_expr(1)) }`,
		"a.tf": `output "o" { value = [for v in [1] : provider::p::f(v)] }
locals { plain = upper("x") }`,
	})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	var got []string
	for _, c := range m.FunctionCalls {
		got = append(got, c.Name+"@"+posString(c.Range)+"-"+posString(c.NameRange))
	}
	want := []string{
		"provider::p::f@a.tf:1:38-a.tf:1:38",
		"core::upper@b.tf:1:14-b.tf:1:14",
		"provider::terraform::encode_expr@b.tf:1:26-b.tf:1:26",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
