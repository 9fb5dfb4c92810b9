package configs

import (
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// bodyView decodes a merged resource body against a small schema: an
// argument's value, and each nested block as "type.label", in order.
func bodyView(t *testing.T, body hcl.Body) (map[string]cty.Value, []string) {
	t.Helper()
	content, ds := body.Content(&hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "a"}, {Name: "b"}, {Name: "c"}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "rule", LabelNames: []string{"name"}}, {Type: "tag"}},
	})
	if ds.HasErrors() {
		t.Fatalf("decoding merged body: %s", ds.Error())
	}
	vals := map[string]cty.Value{}
	for name, attr := range content.Attributes {
		v, ds := attr.Expr.Value(nil)
		if ds.HasErrors() {
			t.Fatalf("evaluating %s: %s", name, ds.Error())
		}
		vals[name] = v
	}
	var blocks []string
	for _, b := range content.Blocks {
		label := b.Type
		if len(b.Labels) > 0 {
			label += "." + b.Labels[0]
		}
		blocks = append(blocks, label)
	}
	return vals, blocks
}

func TestOverrideMerge(t *testing.T) {
	const base = `
resource "terraform_data" "x" {
  a = 1
  b = 2
  count = 2
  rule "r1" {}
  rule "r2" {}
  tag {}
  lifecycle {
    create_before_destroy = true
    prevent_destroy = true
  }
}
variable "v" {
  description = "base"
  type = string
  default = "d"
}
locals {
  l = "base"
  k = "keep"
}
output "o" {
  value = "base"
  description = "base"
}
provider "aws" {
  region = "us-east-1"
  profile = "p"
}
`
	tests := map[string]struct {
		files map[string]string
		check func(t *testing.T, m *Module)
	}{
		"ArgumentsReplacedOneByOne": {
			files: map[string]string{"override.tf": `resource "terraform_data" "x" { b = 20 }`},
			check: func(t *testing.T, m *Module) {
				vals, blocks := bodyView(t, m.ManagedResources["terraform_data.x"].Config)
				if !vals["a"].RawEquals(cty.NumberIntVal(1)) || !vals["b"].RawEquals(cty.NumberIntVal(20)) {
					t.Errorf("got a=%#v b=%#v, want a=1 b=20", vals["a"], vals["b"])
				}
				if got := len(blocks); got != 3 {
					t.Errorf("nested blocks %v, want the base's three untouched", blocks)
				}
			},
		},
		"NestedBlocksReplacedByType": {
			files: map[string]string{"override.tf": `resource "terraform_data" "x" {
  rule "r9" {}
}`},
			check: func(t *testing.T, m *Module) {
				_, blocks := bodyView(t, m.ManagedResources["terraform_data.x"].Config)
				sort.Strings(blocks)
				if want := "rule.r9 tag"; strings.Join(blocks, " ") != want {
					t.Errorf("nested blocks %s, want %s", strings.Join(blocks, " "), want)
				}
			},
		},
		"LaterOverrideFileWins": {
			files: map[string]string{
				"a_override.tf": `resource "terraform_data" "x" { c = "a" }`,
				"override.tf":   `resource "terraform_data" "x" { c = "z" }`,
			},
			check: func(t *testing.T, m *Module) {
				vals, _ := bodyView(t, m.ManagedResources["terraform_data.x"].Config)
				if !vals["c"].RawEquals(cty.StringVal("z")) {
					t.Errorf("c = %#v, want the later file's \"z\"", vals["c"])
				}
			},
		},
		"MetaArgumentsAndLifecycle": {
			files: map[string]string{"override.tf": `resource "terraform_data" "x" {
  for_each = {}
  provider = aws.w
  lifecycle {
    prevent_destroy = false
    ignore_changes = all
  }
}`},
			check: func(t *testing.T, m *Module) {
				r := m.ManagedResources["terraform_data.x"]
				if r.Count == nil || r.ForEach == nil {
					t.Errorf("count and for_each: want both kept, as Terraform merges them")
				}
				if r.ProviderConfigRef == nil || r.ProviderConfigRef.Alias != "w" {
					t.Errorf("provider ref %+v, want aws.w", r.ProviderConfigRef)
				}
				mr := r.Managed
				if !mr.CreateBeforeDestroy || mr.PreventDestroy || !mr.IgnoreAllChanges {
					t.Errorf("lifecycle %+v, want cbd kept, prevent_destroy=false, ignore all", mr)
				}
			},
		},
		"VariableLocalOutputProvider": {
			files: map[string]string{"override.tf": `
variable "v" { default = "o" }
locals { l = "over" }
output "o" { description = "over" }
provider "aws" { region = "eu-west-1" }
`},
			check: func(t *testing.T, m *Module) {
				v := m.Variables["v"]
				if v.Description != "base" || v.Type != cty.String || !v.Default.RawEquals(cty.StringVal("o")) {
					t.Errorf("variable %+v, want base description and type, default \"o\"", v)
				}
				if l := m.Locals["l"]; l.DeclRange.Filename != "override.tf" {
					t.Errorf("local l from %s, want override.tf", l.DeclRange.Filename)
				}
				if m.Locals["k"].DeclRange.Filename != "main.tf" {
					t.Errorf("local k should stay as declared")
				}
				o := m.Outputs["o"]
				if o.Description != "over" || o.Expr.Range().Filename != "main.tf" {
					t.Errorf("output: description %q value from %s", o.Description, o.Expr.Range().Filename)
				}
				attrs, _ := m.ProviderConfigs["aws"].Config.JustAttributes()
				region, _ := attrs["region"].Expr.Value(nil)
				if _, ok := attrs["profile"]; !ok || region.AsString() != "eu-west-1" {
					t.Errorf("provider attrs %v region %#v", attrs, region)
				}
			},
		},
		"DefaultProviderNeedsNoBase": {
			files: map[string]string{"override.tf": `provider "google" { project = "p" }`},
			check: func(t *testing.T, m *Module) {
				if m.ProviderConfigs["google"] == nil {
					t.Errorf("provider google not added")
				}
			},
		},
		"TerraformSettings": {
			files: map[string]string{"override.tf": `terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}`},
			check: func(t *testing.T, m *Module) {
				if rp := m.RequiredProviders["aws"]; rp == nil || rp.Source.Type != "aws" {
					t.Errorf("required provider aws = %+v", rp)
				}
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			files := map[string]string{"main.tf": base, "main2.tf": `provider "aws" {
  alias = "w"
}`}
			for k, v := range tc.files {
				files[k] = v
			}
			tc.check(t, mustLoad(t, files))
		})
	}
}
