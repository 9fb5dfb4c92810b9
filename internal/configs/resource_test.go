package configs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// resourceView is the comparable part of a decoded Resource.
type resourceView struct {
	Provider    string
	ProviderRef string
	Count       string
	ForEach     string
	DependsOn   []string
	Lifecycle   *lifecycleView
	Pre, Post   []string
	Config      []string
}

type lifecycleView struct {
	CreateBeforeDestroy    bool
	CreateBeforeDestroySet bool
	PreventDestroy         bool
	IgnoreAllChanges       bool
	IgnoreChanges          []string
	ReplaceTriggeredBy     []string
}

func viewResource(m *Module, r *Resource) resourceView {
	v := resourceView{
		Provider:  r.Provider.String(),
		Count:     exprText(m, r.Count),
		ForEach:   exprText(m, r.ForEach),
		DependsOn: traversalStrings(r.DependsOn),
		Config:    configView(r.Config),
	}
	if ref := r.ProviderConfigRef; ref != nil {
		v.ProviderRef = ProviderConfigKey(ref.Name, ref.Alias)
	}
	if mr := r.Managed; mr != nil {
		v.Lifecycle = &lifecycleView{
			CreateBeforeDestroy:    mr.CreateBeforeDestroy,
			CreateBeforeDestroySet: mr.CreateBeforeDestroySet,
			PreventDestroy:         mr.PreventDestroy,
			IgnoreAllChanges:       mr.IgnoreAllChanges,
			IgnoreChanges:          traversalStrings(mr.IgnoreChanges),
		}
		for _, e := range mr.ReplaceTriggeredBy {
			v.Lifecycle.ReplaceTriggeredBy = append(v.Lifecycle.ReplaceTriggeredBy, exprText(m, e))
		}
	}
	for _, cr := range r.Preconditions {
		v.Pre = append(v.Pre, exprText(m, cr.Condition))
	}
	for _, cr := range r.Postconditions {
		v.Post = append(v.Post, exprText(m, cr.Condition))
	}
	return v
}

// findResource returns a resource by its configuration address.
func findResource(t *testing.T, m *Module, addr string) *Resource {
	t.Helper()
	if r, ok := m.ManagedResources[addr]; ok {
		return r
	}
	if r, ok := m.DataResources[addr]; ok {
		return r
	}
	if r, ok := m.EphemeralResources[addr]; ok {
		return r
	}
	t.Fatalf("no resource %s; have managed %v, data %v", addr, keys(m.ManagedResources), keys(m.DataResources))
	return nil
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

const awsWest = `
provider "aws" {
  alias  = "west"
  region = "us-west-2"
}
`

func TestResourceDecoding(t *testing.T) {
	cases := map[string]struct {
		reason string
		files  map[string]string
		addr   string
		want   resourceView
	}{
		"Minimal": {
			reason: "A resource with no meta-arguments keeps its whole body and uses the provider implied by its type.",
			files:  map[string]string{"main.tf": `resource "aws_instance" "web" { ami = "ami-1" }`},
			addr:   "aws_instance.web",
			want: resourceView{
				Provider:  "registry.terraform.io/hashicorp/aws",
				Lifecycle: &lifecycleView{},
				Config:    []string{"ami"},
			},
		},
		"MetaArgumentsRemovedBlocksKept": {
			reason: "Meta-arguments leave the body; nested and dynamic blocks stay for the planner.",
			files: map[string]string{"main.tf": awsWest + `
resource "aws_instance" "web" {
  count      = var.n
  provider   = aws.west
  depends_on = [aws_vpc.main, data.aws_ami.ubuntu, aws_subnet.a[0], var.dep, local.dep]
  ami        = "ami-1"
  tags       = { Name = "web" }
  ebs {}
  dynamic "ebs" {
    for_each = var.disks
    content {}
  }
}
`},
			addr: "aws_instance.web",
			want: resourceView{
				Provider:    "registry.terraform.io/hashicorp/aws",
				ProviderRef: "aws.west",
				Count:       "var.n",
				DependsOn:   []string{"aws_vpc.main", "data.aws_ami.ubuntu", "aws_subnet.a[0]", "var.dep", "local.dep"},
				Lifecycle:   &lifecycleView{},
				Config:      []string{"ami", "tags", "ebs", "dynamic.ebs"},
			},
		},
		"ForEach": {
			files: map[string]string{"main.tf": `
resource "aws_instance" "web" {
  for_each = toset(["a", "b"])
  name     = each.key
}
`},
			addr: "aws_instance.web",
			want: resourceView{
				Provider:  "registry.terraform.io/hashicorp/aws",
				ForEach:   `toset(["a", "b"])`,
				Lifecycle: &lifecycleView{},
				Config:    []string{"name"},
			},
		},
		"Lifecycle": {
			reason: "Every lifecycle setting is decoded and the block leaves the body.",
			files: map[string]string{"main.tf": `
resource "aws_instance" "web" {
  count = 2
  ami   = "ami-1"
  lifecycle {
    create_before_destroy = true
    prevent_destroy       = true
    ignore_changes        = [tags, tags["Name"], ebs[0].size]
    replace_triggered_by  = [aws_vpc.main.id, aws_subnet.a[count.index], aws_eip.e]
    precondition {
      condition     = var.ok
      error_message = "Not ok."
    }
    postcondition {
      condition     = self.ami != ""
      error_message = "No AMI."
    }
  }
}
`},
			addr: "aws_instance.web",
			want: resourceView{
				Provider: "registry.terraform.io/hashicorp/aws",
				Count:    "2",
				Lifecycle: &lifecycleView{
					CreateBeforeDestroy:    true,
					CreateBeforeDestroySet: true,
					PreventDestroy:         true,
					IgnoreChanges:          []string{"tags", `tags["Name"]`, "ebs[0].size"},
					ReplaceTriggeredBy:     []string{"aws_vpc.main.id", "aws_subnet.a[count.index]", "aws_eip.e"},
				},
				Pre:    []string{"var.ok"},
				Post:   []string{`self.ami != ""`},
				Config: []string{"ami"},
			},
		},
		"CreateBeforeDestroyFalseIsSet": {
			reason: "An explicit false is recorded as set, so it can override an inherited true.",
			files: map[string]string{"main.tf": `
resource "aws_instance" "web" {
  lifecycle { create_before_destroy = false }
}
`},
			addr: "aws_instance.web",
			want: resourceView{
				Provider:  "registry.terraform.io/hashicorp/aws",
				Lifecycle: &lifecycleView{CreateBeforeDestroySet: true},
			},
		},
		"Ephemeral": {
			reason: "An ephemeral block takes count, for_each, provider, depends_on and pre- and postconditions, as a data block does.",
			files: map[string]string{"main.tf": awsWest + `
ephemeral "aws_secret" "s" {
  for_each   = toset(["a"])
  provider   = aws.west
  depends_on = [aws_vpc.main]
  name       = each.key
  lifecycle {
    precondition {
      condition     = var.ok
      error_message = "Not ok."
    }
    postcondition {
      condition     = self.value != ""
      error_message = "Empty."
    }
  }
}
`},
			addr: "ephemeral.aws_secret.s",
			want: resourceView{
				Provider:    "registry.terraform.io/hashicorp/aws",
				ProviderRef: "aws.west",
				ForEach:     `toset(["a"])`,
				DependsOn:   []string{"aws_vpc.main"},
				Pre:         []string{"var.ok"},
				Post:        []string{`self.value != ""`},
				Config:      []string{"name"},
			},
		},
		"EphemeralJSON": {
			reason: "The JSON syntax has ephemeral blocks too.",
			files:  map[string]string{"main.tf.json": `{"ephemeral": {"random_password": {"p": {"name": "x", "count": 2}}}}`},
			addr:   "ephemeral.random_password.p",
			want: resourceView{
				Provider: "registry.terraform.io/hashicorp/random",
				Count:    "2",
				Config:   []string{"name"},
			},
		},
		"IgnoreAllKeyword": {
			files: map[string]string{"main.tf": `
resource "aws_instance" "web" {
  lifecycle { ignore_changes = all }
}
`},
			addr: "aws_instance.web",
			want: resourceView{
				Provider:  "registry.terraform.io/hashicorp/aws",
				Lifecycle: &lifecycleView{IgnoreAllChanges: true},
			},
		},
		"IgnoreAllString": {
			files: map[string]string{"main.tf": `
resource "aws_instance" "web" {
  lifecycle { ignore_changes = "all" }
}
`},
			addr: "aws_instance.web",
			want: resourceView{
				Provider:  "registry.terraform.io/hashicorp/aws",
				Lifecycle: &lifecycleView{IgnoreAllChanges: true},
			},
		},
		"RequiredProvidersSourceForImpliedType": {
			reason: "The type's prefix is a local name, mapped to a source by required_providers.",
			files: map[string]string{"main.tf": `
terraform {
  required_providers {
    mycloud = { source = "example.com/Acme/MyCloud", version = "~> 1.0" }
  }
}
resource "mycloud_server" "s" {}
`},
			addr: "mycloud_server.s",
			want: resourceView{
				Provider:  "example.com/acme/mycloud",
				Lifecycle: &lifecycleView{},
			},
		},
		"RequiredProvidersSourceForProviderArgument": {
			reason: "The provider argument's local name is mapped too, whatever the resource type says.",
			files: map[string]string{"main.tf": `
terraform {
  required_providers {
    awsalt = { source = "hashicorp/aws" }
  }
}
resource "aws_instance" "web" { provider = awsalt }
`},
			addr: "aws_instance.web",
			want: resourceView{
				Provider:    "registry.terraform.io/hashicorp/aws",
				ProviderRef: "awsalt",
				Lifecycle:   &lifecycleView{},
			},
		},
		"RequiredProvidersInLaterFile": {
			reason: "Providers are resolved after every file is loaded.",
			files: map[string]string{
				"a.tf": `resource "acme_thing" "t" {}`,
				"versions.tf": `
terraform {
  required_providers {
    acme = { source = "acme/acme" }
  }
}`,
			},
			addr: "acme_thing.t",
			want: resourceView{
				Provider:  "registry.terraform.io/acme/acme",
				Lifecycle: &lifecycleView{},
			},
		},
		"BuiltInTerraformProvider": {
			files: map[string]string{"main.tf": `resource "terraform_data" "x" { input = 1 }`},
			addr:  "terraform_data.x",
			want: resourceView{
				Provider:  "terraform.io/builtin/terraform",
				Lifecycle: &lifecycleView{},
				Config:    []string{"input"},
			},
		},
		"DataResource": {
			reason: "A data block has no managed lifecycle but keeps its conditions; its body keeps nested blocks.",
			files: map[string]string{"main.tf": awsWest + `
data "aws_ami" "ubuntu" {
  count    = 1
  provider = aws.west
  name     = "ubuntu"
  ebs {}
  lifecycle {
    postcondition {
      condition     = self.id != ""
      error_message = "No image."
    }
  }
}
`},
			addr: "data.aws_ami.ubuntu",
			want: resourceView{
				Provider:    "registry.terraform.io/hashicorp/aws",
				ProviderRef: "aws.west",
				Count:       "1",
				Post:        []string{`self.id != ""`},
				Config:      []string{"name", "ebs"},
			},
		},
		"JSON": {
			reason: "The JSON syntax spells references as strings and expressions as templates.",
			files: map[string]string{"main.tf.json": `{
  "provider": {"aws": [{"alias": "west"}]},
  "resource": {
    "aws_instance": {
      "web": {
        "//": "JSON comments are not arguments.",
        "count": "${var.n}",
        "provider": "aws.west",
        "depends_on": ["aws_vpc.main", "data.aws_ami.ubuntu"],
        "ami": "ami-1",
        "tags": {"Name": "web"},
        "ebs": [{}],
        "lifecycle": {
          "create_before_destroy": true,
          "ignore_changes": ["tags", "tags[\"Name\"]"],
          "replace_triggered_by": ["aws_vpc.main.id"],
          "precondition": {"condition": "${var.ok}", "error_message": "Not ok."}
        }
      }
    }
  }
}`},
			addr: "aws_instance.web",
			want: resourceView{
				Provider:    "registry.terraform.io/hashicorp/aws",
				ProviderRef: "aws.west",
				Count:       `"${var.n}"`,
				DependsOn:   []string{"aws_vpc.main", "data.aws_ami.ubuntu"},
				Lifecycle: &lifecycleView{
					CreateBeforeDestroy:    true,
					CreateBeforeDestroySet: true,
					IgnoreChanges:          []string{"tags", `tags["Name"]`},
					ReplaceTriggeredBy:     []string{"aws_vpc.main.id"},
				},
				Pre:    []string{`"${var.ok}"`},
				Config: []string{"ami", "tags", "ebs"},
			},
		},
		"JSONIgnoreAll": {
			files: map[string]string{"main.tf.json": `{"resource": {"aws_instance": {"web": {"lifecycle": {"ignore_changes": "all"}}}}}`},
			addr:  "aws_instance.web",
			want: resourceView{
				Provider:  "registry.terraform.io/hashicorp/aws",
				Lifecycle: &lifecycleView{IgnoreAllChanges: true},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m := mustLoad(t, tc.files)
			got := viewResource(m, findResource(t, m, tc.addr))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
