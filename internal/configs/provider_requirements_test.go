package configs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestProviderRequirements pins what the module tree asks of each
// provider: every module's constraints, and providers used only by
// resources or provider blocks.
func TestProviderRequirements(t *testing.T) {
	root := mustLoad(t, map[string]string{
		"main.tf": `
terraform {
  required_providers {
    random = { source = "hashicorp/random", version = ">= 3.0" }
  }
}
module "m" {
  source = "./m"
}
resource "terraform_data" "x" {}
`,
		"m/main.tf": `
terraform {
  required_providers {
    random = { source = "hashicorp/random", version = "< 4.0" }
    tls    = { source = "example.com/acme/tls" }
  }
}
resource "time_static" "t" {}
`,
	})
	got := map[string][]string{}
	for _, r := range root.ProviderRequirements() {
		var cs []string
		for _, c := range r.Constraints {
			cs = append(cs, c.Constraint)
		}
		got[r.Provider.String()] = cs
	}
	want := map[string][]string{
		"registry.terraform.io/hashicorp/random": {">= 3.0", "< 4.0"},
		"example.com/acme/tls":                   nil,
		"registry.terraform.io/hashicorp/time":   nil,
		"terraform.io/builtin/terraform":         nil,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requirements -want +got:\n%s", diff)
	}
}
