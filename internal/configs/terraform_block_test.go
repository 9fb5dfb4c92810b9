package configs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// terraformView is the comparable part of what terraform blocks declare.
type terraformView struct {
	RequiredVersions  []string
	RequiredProviders map[string]requiredProviderView
	Backend           string // "type path-expression" or ""
}

type requiredProviderView struct {
	Source   string
	Versions []string
}

func viewTerraform(m *Module) terraformView {
	v := terraformView{RequiredProviders: map[string]requiredProviderView{}}
	for _, vc := range m.RequiredVersions {
		v.RequiredVersions = append(v.RequiredVersions, vc.Constraint)
	}
	for name, rp := range m.RequiredProviders {
		rv := requiredProviderView{Source: rp.Source.String()}
		for _, vc := range rp.Versions {
			rv.Versions = append(rv.Versions, vc.Constraint)
		}
		v.RequiredProviders[name] = rv
	}
	if b := m.Backend; b != nil {
		attrs, _ := b.Config.JustAttributes()
		v.Backend = b.Type
		if p, ok := attrs["path"]; ok {
			v.Backend += " " + exprText(m, p.Expr)
		}
	}
	return v
}

func TestTerraformBlock(t *testing.T) {
	cases := map[string]struct {
		reason string
		files  map[string]string
		want   terraformView
	}{
		"Empty": {
			files: map[string]string{"main.tf": `terraform {}`},
			want:  terraformView{RequiredProviders: map[string]requiredProviderView{}},
		},
		"Everything": {
			reason: "Several terraform blocks add up; the legacy string form is a version with the default source.",
			files: map[string]string{
				"main.tf": `
terraform {
  required_version = ">= 1.3.0, < 2.0.0"
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
    random   = { "version" = ">= 3.0" }
    null     = "~> 3.1"
  }
  backend "local" {
    path = "state/terraform.tfstate"
  }
}`,
				"versions.tf": `
terraform {
  required_version = "~> 1.5.0"
  required_providers {
    acme = { source = "registry.example.com/acme/acme" }
  }
}`,
			},
			want: terraformView{
				RequiredVersions: []string{">= 1.3.0, < 2.0.0", "~> 1.5.0"},
				RequiredProviders: map[string]requiredProviderView{
					"aws":    {Source: "registry.terraform.io/hashicorp/aws", Versions: []string{"~> 5.0"}},
					"random": {Source: "registry.terraform.io/hashicorp/random", Versions: []string{">= 3.0"}},
					"null":   {Source: "registry.terraform.io/hashicorp/null", Versions: []string{"~> 3.1"}},
					"acme":   {Source: "registry.example.com/acme/acme"},
				},
				Backend: `local "state/terraform.tfstate"`,
			},
		},
		"JSON": {
			files: map[string]string{"main.tf.json": `{"terraform": {
  "required_version": ">= 1.0",
  "required_providers": {"aws": {"source": "hashicorp/aws", "version": "~> 5.0"}},
  "backend": {"local": {"path": "x.tfstate"}}
}}`},
			want: terraformView{
				RequiredVersions: []string{">= 1.0"},
				RequiredProviders: map[string]requiredProviderView{
					"aws": {Source: "registry.terraform.io/hashicorp/aws", Versions: []string{"~> 5.0"}},
				},
				Backend: `local "x.tfstate"`,
			},
		},
		"ConfigurationAliasesAccepted": {
			reason: "configuration_aliases is valid in Terraform and has nothing to declare in a root module.",
			files: map[string]string{"main.tf": `
terraform {
  required_providers {
    aws = {
      source                = "hashicorp/aws"
      configuration_aliases = [aws.east]
    }
  }
}`},
			want: terraformView{RequiredProviders: map[string]requiredProviderView{
				"aws": {Source: "registry.terraform.io/hashicorp/aws"},
			}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m := mustLoad(t, tc.files)
			if diff := cmp.Diff(tc.want, viewTerraform(m)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
