package render

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/zclconf/go-cty/cty"
)

// terraformConfig loads the configuration under testdata/terraform at
// path: one .tf file, loaded alone as main.tf, or a directory whose
// files (.tf, and .tf.txt, kept so that no tool reads them as Go
// module's configuration) are loaded with their paths.
func terraformConfig(t testing.TB, path string) *configs.Module {
	t.Helper()
	full := filepath.Join("testdata", "terraform", path)
	files := map[string][]byte{}
	if strings.HasSuffix(path, ".tf") {
		src, err := os.ReadFile(full)
		if err != nil {
			t.Fatal(err)
		}
		files["main.tf"] = src
		full = filepath.Dir(full)
	} else {
		err := filepath.WalkDir(full, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, err := filepath.Rel(full, p)
			if err != nil || !strings.HasSuffix(p, ".tf") && !strings.HasSuffix(p, ".tf.txt") {
				return err
			}
			src, err := os.ReadFile(p)
			files[filepath.ToSlash(strings.TrimSuffix(rel, ".txt"))] = src
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	cfg, ds := configs.LoadFiles(full, files)
	if ds.HasErrors() {
		t.Fatalf("loading %s: %v", path, ds)
	}
	return cfg
}

// marshal is json.Marshal that fails the test on error.
func marshal(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// configurationText is a plan document's "configuration", indented with
// sorted keys, so two documents compare as text: what terraform-json
// cannot represent (explicit nulls, empty expressions, single nested
// blocks) compares too.
func configurationText(t testing.TB, doc []byte) string {
	t.Helper()
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(m["configuration"], "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// configSchemas are exampleSchemas with a provider configuration schema,
// so provider blocks have expressions to describe.
func configSchemas() providers.Schemas {
	s := exampleSchemas()
	secretive := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"password_wo": {Type: cty.String, Optional: true, WriteOnly: true},
		"login": {Optional: true, NestedType: &configschema.Object{Nesting: configschema.NestingSingle, Attributes: map[string]*configschema.Attribute{
			"token_wo": {Type: cty.String, Optional: true, WriteOnly: true},
		}}},
		"name": {Type: cty.String, Optional: true},
	}}
	s[exampleProvider].ResourceTypes["example_secret"] = providers.Schema{Block: secretive}
	s[exampleProvider].Provider = providers.Schema{Block: &configschema.Block{
		Attributes: map[string]*configschema.Attribute{"region": {Type: cty.String, Optional: true}},
		BlockTypes: map[string]*configschema.NestedBlock{"assume_role": {Nesting: configschema.NestingSingle, Block: configschema.Block{
			Attributes: map[string]*configschema.Attribute{"role": {Type: cty.String, Optional: true}},
		}}},
	}}
	return s
}

// TestConfigJSONGolden writes the configuration document of hand-made
// configurations whose features the real providers of the compare suite
// (internal/enginetest, which holds the document to Terraform 1.5.7's)
// cannot show: nested blocks of every nesting, dynamic blocks, provider
// expressions, configuration_aliases and passed aliases, registry module
// versions, references into module instances, write-only arguments
// (whose literal values are never written). Run with -update to
// rewrite the golden files, written by following Terraform's rules.
func TestConfigJSONGolden(t *testing.T) {
	tests := map[string]map[string]string{
		"blocks": {"main.tf": `
resource "example_thing" "a" {
  name = "a"
  timeouts {
    create = "5m"
  }
  network {
    subnet = var.subnets[0]
  }
  network {
    subnet = "b"
  }
  disk {
    size = 1
  }
  volume "data" {
    size = 2
  }
  dynamic "credential" {
    for_each = ["x"]
    content {
      user = credential.value
    }
  }
  settings = { mode = "m" }
  config   = null
  tags     = { (var.key) = "v" }
}
variable "subnets" {
  type    = list(string)
  default = ["s"]
}
variable "key" {
  default = null
}
resource "example_secret" "s" {
  name        = "n"
  password_wo = "LITERAL-SECRET"
  login       = { token_wo = "LITERAL-TOKEN" }
}
resource "example_secret" "r" {
  password_wo = var.key
}
data "example_lookup" "l" {
  query      = example_thing.a.network[0].subnet
  depends_on = [example_thing.a]
}
`},
		"providers and modules": {
			"main.tf": `
terraform {
  required_providers {
    example = {
      source  = "hashicorp/example"
      version = ">= 1.0, < 2"
    }
  }
}
provider "example" {
  region = "eu"
  assume_role {
    role = var.role
  }
}
provider "example" {
  alias  = "west"
  region = "west"
}
variable "role" {
  type        = string
  description = "The role."
  sensitive   = true
}
module "child" {
  source = "./child"
  count  = 2
  name   = "n${count.index}"
  providers = {
    example      = example
    example.west = example.west
  }
}
output "names" {
  value = [module.child[0].name, module.child[1]]
}
output "unknown" {
  value = timestamp()
}
`,
			"child/main.tf": `
terraform {
  required_providers {
    example = {
      source                = "hashicorp/example"
      configuration_aliases = [example.west]
    }
  }
}
variable "name" {}
resource "example_thing" "t" {
  name = var.name
}
resource "example_thing" "w" {
  provider = example.west
  name     = "${var.name}-w"
}
output "name" {
  value = example_thing.t.name
}
`},
	}
	for name, files := range tests {
		t.Run(name, func(t *testing.T) {
			srcs := map[string][]byte{}
			for f, src := range files {
				srcs[f] = []byte(src)
			}
			cfg, ds := configs.LoadFiles(t.TempDir(), srcs)
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			doc, err := PlanJSON(&plans.Plan{}, configSchemas(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			raw := marshal(t, doc)
			var back tfjson.Plan
			if err := json.Unmarshal(raw, &back); err != nil {
				t.Fatalf("terraform-json cannot read the document: %s", err)
			}
			checkGolden(t, "json/config_"+strings.ReplaceAll(name, " ", "_")+".json", configurationText(t, raw)+"\n")
		})
	}
}
