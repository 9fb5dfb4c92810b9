package configs

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/google/go-cmp/cmp"
)

type providerView struct {
	Name, Alias, Source string
	Config              []string // attribute names left for the provider
}

func viewProviders(t *testing.T, m *Module) map[string]providerView {
	t.Helper()
	out := map[string]providerView{}
	for key, p := range m.ProviderConfigs {
		attrs, ds := p.Config.JustAttributes()
		if ds.HasErrors() {
			t.Fatalf("provider %s config: %s", key, ds.Error())
		}
		v := providerView{Name: p.Name, Alias: p.Alias, Source: p.Source.String()}
		for _, a := range attrsInSourceOrder(attrs) {
			v.Config = append(v.Config, a.Name)
		}
		out[key] = v
	}
	return out
}

func TestProviderBlock(t *testing.T) {
	cases := map[string]struct {
		reason string
		files  map[string]string
		want   map[string]providerView
	}{
		"DefaultAndAliases": {
			reason: "Configurations are keyed by name and alias; alias leaves the body and sources are resolved.",
			files: map[string]string{"main.tf": `
terraform {
  required_providers {
    cloud = { source = "example.com/acme/cloud" }
  }
}
provider "aws" {
  region = "us-east-1"
}
provider "aws" {
  alias   = "west"
  region  = "us-west-2"
  profile = "p"
}
provider "cloud" {
  alias = "x"
}
provider "terraform" {}
`},
			want: map[string]providerView{
				"aws":       {Name: "aws", Source: "registry.terraform.io/hashicorp/aws", Config: []string{"region"}},
				"aws.west":  {Name: "aws", Alias: "west", Source: "registry.terraform.io/hashicorp/aws", Config: []string{"region", "profile"}},
				"cloud.x":   {Name: "cloud", Alias: "x", Source: "example.com/acme/cloud"},
				"terraform": {Name: "terraform", Source: "terraform.io/builtin/terraform"},
			},
		},
		"JSON": {
			files: map[string]string{"main.tf.json": `{"provider": {"aws": [{"region": "a"}, {"alias": "b", "region": "b"}]}}`},
			want: map[string]providerView{
				"aws":   {Name: "aws", Source: "registry.terraform.io/hashicorp/aws", Config: []string{"region"}},
				"aws.b": {Name: "aws", Alias: "b", Source: "registry.terraform.io/hashicorp/aws", Config: []string{"region"}},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m := mustLoad(t, tc.files)
			if diff := cmp.Diff(tc.want, viewProviders(t, m)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestProviderVersionArgument checks that a version argument in a provider
// block is a warning and does not reach the provider's configuration.
func TestProviderVersionArgument(t *testing.T) {
	m, ds := loadStrings(map[string]string{"main.tf": `
provider "aws" {
  version = "~> 5.0"
  region  = "x"
}`})
	want := []diagWant{warnAt("Version constraints inside provider configuration blocks are deprecated", "main.tf:3:3")}
	if diff := cmp.Diff(want, summarizeDiags(ds)); diff != "" {
		t.Errorf("diagnostics -want +got:\n%s", diff)
	}
	got := viewProviders(t, m)["aws"].Config
	if diff := cmp.Diff([]string{"region"}, got); diff != "" {
		t.Errorf("config -want +got:\n%s", diff)
	}
}

func TestProviderMeta(t *testing.T) {
	m := mustLoad(t, map[string]string{"main.tf": `
terraform {
  required_providers {
    cloud = { source = "example.com/acme/cloud" }
  }
  provider_meta "cloud" {
    module_name = "net"
  }
}
`})
	acme := m.ProviderMetaFor(mustProvider(t, "example.com/acme/cloud"))
	if acme == nil || acme.Name != "cloud" {
		t.Fatalf("provider_meta for the required provider's source not found: %#v", acme)
	}
	attrs, ds := acme.Config.JustAttributes()
	if ds.HasErrors() || attrs["module_name"] == nil {
		t.Errorf("the block's body is kept for the provider's schema: %v %s", attrs, ds.Error())
	}
	if other := m.ProviderMetaFor(mustProvider(t, "hashicorp/cloud")); other != nil {
		t.Errorf("provider_meta found for a provider the module did not name: %#v", other)
	}
}

func mustProvider(t *testing.T, s string) addrs.Provider {
	t.Helper()
	p, err := addrs.ParseProviderSource(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
