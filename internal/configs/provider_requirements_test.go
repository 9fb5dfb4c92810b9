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

// TestProviders: the providers a configuration needs are every module's
// required_providers entries (used or not, as Terraform loads them),
// provider blocks and resources, once each, in address order.
func TestProviders(t *testing.T) {
	root := mustLoad(t, map[string]string{
		"main.tf": `
terraform {
  required_providers {
    unused = { source = "example.com/acme/unused" }
  }
}
provider "aws" {}
module "m" {
  source = "./m"
}
resource "terraform_data" "x" {}
data "random_id" "r" {}
`,
		"m/main.tf": `
terraform {
  required_providers {
    tls = { source = "example.com/acme/tls" }
  }
}
resource "time_static" "t" {}
resource "random_id" "r" {}
`,
	})
	var got []string
	for _, p := range root.Providers() {
		got = append(got, p.String())
	}
	want := []string{
		"example.com/acme/tls",
		"example.com/acme/unused",
		"registry.terraform.io/hashicorp/aws",
		"registry.terraform.io/hashicorp/random",
		"registry.terraform.io/hashicorp/time",
		"terraform.io/builtin/terraform",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}

// TestConfigurationAliases: a child module's configuration_aliases are
// recorded in order (the JSON description of the configuration lists
// them), and only well-formed NAME.ALIAS entries.
func TestConfigurationAliases(t *testing.T) {
	root := mustLoad(t, map[string]string{
		"main.tf": `
provider "random" {
  alias = "a"
}
provider "random" {
  alias = "b"
}
module "m" {
  source    = "./m"
  providers = { random.west = random.a, random.east = random.b }
}
`,
		"m/main.tf": `
terraform {
  required_providers {
    random = {
      source                = "hashicorp/random"
      configuration_aliases = [random.west, random.east]
    }
  }
}
`,
	})
	got := root.ModuleCalls["m"].Module.RequiredProviders["random"].Aliases
	want := []ProviderConfigAlias{{Name: "random", Alias: "west"}, {Name: "random", Alias: "east"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Aliases (-want +got):\n%s", diff)
	}
}
