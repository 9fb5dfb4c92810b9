package configs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// diagnosticCase is one configuration with the diagnostics it must produce.
type diagnosticCase struct {
	reason string
	files  map[string]string
	want   []diagWant
}

// TestDiagnostics checks every load-time rule's diagnostic: its severity,
// summary, and that it points at the narrowest range (the label, argument
// name or expression at fault).
func TestDiagnostics(t *testing.T) {
	for name, tc := range diagnosticCases() {
		t.Run(name, func(t *testing.T) {
			_, ds := loadStrings(tc.files)
			if diff := cmp.Diff(tc.want, summarizeDiags(ds)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s\nfull diagnostics:\n%s", tc.reason, diff, ds.Error())
			}
		})
	}
}

// diagnosticCases returns the table of TestDiagnostics; the fuzz target
// uses its files as seeds.
func diagnosticCases() map[string]diagnosticCase {
	type files = map[string]string
	return map[string]diagnosticCase{
		// terraform blocks
		"UnsupportedBackend": {
			files: files{"main.tf": `terraform {
  backend "s3" {}
}`},
			want: []diagWant{errAt("Unsupported backend type", "main.tf:2:11")},
		},
		"DuplicateBackend": {
			files: files{"main.tf": `terraform {
  backend "local" {}
  backend "local" {}
}`},
			want: []diagWant{errAt("Duplicate backend configuration", "main.tf:3:3")},
		},
		"RequiredVersionUnsatisfiedHidesOtherErrors": {
			reason: "A configuration for another Terraform version may use syntax Cairn does not know.",
			files: files{"main.tf": `terraform {
  required_version = ">= 1.6.0"
}
resource "x" {}
`},
			want: []diagWant{errAt("Unsupported Terraform Core version", "main.tf:2:22")},
		},
		"RequiredVersionInvalid": {
			files: files{"main.tf": `terraform {
  required_version = "banana"
}`},
			want: []diagWant{errAt("Invalid version constraint", "main.tf:2:22")},
		},
		"RequiredVersionNotLiteral": {
			files: files{"main.tf": `terraform {
  required_version = var.v
}`},
			want: []diagWant{errAt("Variables not allowed", "main.tf:2:22")},
		},
		"Experiments": {
			files: files{"main.tf": `terraform {
  experiments = [x]
}`},
			want: []diagWant{errAt("Experiments are not supported", "main.tf:2:3")},
		},
		"Cloud": {
			files: files{"main.tf": `terraform {
  cloud {}
}`},
			want: []diagWant{errAt("Unsupported block type", "main.tf:2:3")},
		},
		"ProviderMeta": {
			files: files{"main.tf": `terraform {
  provider_meta "aws" {}
}`},
			want: []diagWant{warnAt("provider_meta is ignored", "main.tf:2:3")},
		},
		"LanguageEdition": {
			files: files{"main.tf": `terraform {
  language = TF2099
}`},
			want: []diagWant{errAt("Unsupported language edition", "main.tf:2:14")},
		},

		// required_providers
		"RequiredProviderNamedTerraform": {
			files: files{"main.tf": `terraform {
  required_providers {
    terraform = { source = "hashicorp/terraform" }
  }
}`},
			want: []diagWant{errAt("Invalid provider local name", "main.tf:3:5")},
		},
		"RequiredProviderBadName": {
			files: files{"main.tf": `terraform {
  required_providers {
    my_cloud = { source = "acme/cloud" }
  }
}`},
			want: []diagWant{errAt("Invalid provider local name", "main.tf:3:5")},
		},
		"InvalidProviderSource": {
			files: files{"main.tf": `terraform {
  required_providers {
    aws = { source = "a/b/c/d" }
  }
}`},
			want: []diagWant{errAt("Invalid provider source string", "main.tf:3:22")},
		},
		"UnknownRequiredProviderKey": {
			files: files{"main.tf": `terraform {
  required_providers {
    aws = { sauce = "x" }
  }
}`},
			want: []diagWant{errAt("Invalid required_providers object", "main.tf:3:13")},
		},
		"RequiredProviderNotObject": {
			files: files{"main.tf": `terraform {
  required_providers {
    aws = 5
  }
}`},
			want: []diagWant{errAt("Invalid required_providers entry", "main.tf:3:11")},
		},
		"LegacyRequiredProviderBadVersion": {
			files: files{"main.tf": `terraform {
  required_providers {
    aws = "banana"
  }
}`},
			want: []diagWant{errAt("Invalid version constraint", "main.tf:3:11")},
		},
		"DuplicateRequiredProvider": {
			files: files{
				"a.tf": `terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}`,
				"b.tf": `terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}`,
			},
			want: []diagWant{errAt("Duplicate required provider", "b.tf:3:5")},
		},

		// provider blocks
		"DuplicateProvider": {
			files: files{"main.tf": `provider "aws" {}
provider "aws" {}`},
			want: []diagWant{errAt("Duplicate provider configuration", "main.tf:2:10")},
		},
		"DuplicateProviderAlias": {
			files: files{"main.tf": `provider "aws" {
  alias = "a"
}
provider "aws" {
  alias = "a"
}`},
			want: []diagWant{errAt("Duplicate provider configuration", "main.tf:5:11")},
		},
		"InvalidProviderAlias": {
			files: files{"main.tf": `provider "aws" {
  alias = "1a"
}`},
			want: []diagWant{errAt("Invalid provider configuration alias", "main.tf:2:11")},
		},
		"ProviderReservedArgument": {
			files: files{"main.tf": `provider "aws" {
  count = 1
}`},
			want: []diagWant{errAt("Reserved argument name in provider block", "main.tf:2:3")},
		},
		"ProviderReservedBlock": {
			files: files{"main.tf": `provider "aws" {
  lifecycle {}
}`},
			want: []diagWant{errAt("Reserved block type name in provider block", "main.tf:2:3")},
		},
		"InvalidProviderName": {
			files: files{"main.tf": `provider "AWS" {}`},
			want:  []diagWant{errAt("Invalid provider local name", "main.tf:1:10")},
		},

		// variables
		"InvalidDefault": {
			files: files{"main.tf": `variable "x" {
  type    = number
  default = "abc"
}`},
			want: []diagWant{errAt("Invalid default value for variable", "main.tf:3:13")},
		},
		"InvalidNestedDefault": {
			reason: "Optional attribute defaults do not make up for a missing required attribute.",
			files: files{"main.tf": `variable "x" {
  type    = object({ a = string, b = optional(string, "b") })
  default = { b = "x" }
}`},
			want: []diagWant{errAt("Invalid default value for variable", "main.tf:3:13")},
		},
		"NonNullableNullDefault": {
			files: files{"main.tf": `variable "x" {
  nullable = false
  default  = null
}`},
			want: []diagWant{errAt("Invalid default value for variable", "main.tf:3:14")},
		},
		"DefaultNotStatic": {
			files: files{"main.tf": `variable "x" {
  default = var.y
}`},
			want: []diagWant{errAt("Variables not allowed", "main.tf:2:13")},
		},
		"ReservedVariableName": {
			files: files{"main.tf": `variable "count" {}`},
			want:  []diagWant{errAt("Invalid variable name", "main.tf:1:10")},
		},
		"InvalidVariableName": {
			files: files{"main.tf": `variable "1x" {}`},
			want:  []diagWant{errAt("Invalid variable name", "main.tf:1:10")},
		},
		"DuplicateVariable": {
			files: files{"a.tf": `variable "x" {}`, "b.tf": `variable "x" {}`},
			want:  []diagWant{errAt("Duplicate variable declaration", "b.tf:1:10")},
		},
		"QuotedType": {
			files: files{"main.tf": `variable "x" {
  type = "string"
}`},
			want: []diagWant{errAt("Invalid quoted type constraints", "main.tf:2:10")},
		},
		"InvalidType": {
			files: files{"main.tf": `variable "x" {
  type = lisst(string)
}`},
			want: []diagWant{errAt("Invalid type specification", "main.tf:2:10")},
		},
		"SensitiveNotLiteral": {
			files: files{"main.tf": `variable "x" {
  sensitive = var.s
}`},
			want: []diagWant{errAt(`Invalid value for "sensitive"`, "main.tf:2:15")},
		},
		"DescriptionNotLiteral": {
			files: files{"main.tf": `variable "x" {
  description = var.x
}`},
			want: []diagWant{errAt("Variables not allowed", "main.tf:2:17")},
		},
		"ValidationRefersToOtherVariable": {
			files: files{"main.tf": `variable "x" {
  validation {
    condition     = var.y > 0
    error_message = "Bad."
  }
}`},
			want: []diagWant{errAt("Invalid reference in variable validation", "main.tf:3:21")},
		},
		"ValidationWithoutReference": {
			files: files{"main.tf": `variable "x" {
  validation {
    condition     = true
    error_message = "Bad."
  }
}`},
			want: []diagWant{errAt("Invalid variable validation condition", "main.tf:3:21")},
		},
		"EmptyErrorMessage": {
			files: files{"main.tf": `variable "x" {
  validation {
    condition     = var.x != ""
    error_message = " "
  }
}`},
			want: []diagWant{errAt("Invalid error message", "main.tf:4:21")},
		},
		"ValidationMissingErrorMessage": {
			files: files{"main.tf": `variable "x" {
  validation {
    condition = var.x != ""
  }
}`},
			want: []diagWant{errAt("Missing required argument", "main.tf:2:14")},
		},

		// outputs
		"OutputMissingValue": {
			files: files{"main.tf": `output "o" {
  description = "x"
}`},
			want: []diagWant{errAt("Missing required argument", "main.tf:1:12")},
		},
		"DuplicateOutput": {
			files: files{"main.tf": `output "o" { value = 1 }
output "o" { value = 2 }`},
			want: []diagWant{errAt("Duplicate output definition", "main.tf:2:8")},
		},
		"InvalidOutputName": {
			files: files{"main.tf": `output "o o" { value = 1 }`},
			want:  []diagWant{errAt("Invalid output name", "main.tf:1:8")},
		},
		"OutputPreconditionSelf": {
			files: files{"main.tf": `output "o" {
  value = 1
  precondition {
    condition     = self.x
    error_message = "Bad."
  }
}`},
			want: []diagWant{errAt("Invalid reference in precondition", "main.tf:4:21")},
		},

		// locals
		"DuplicateLocal": {
			files: files{"main.tf": `locals {
  a = 1
}
locals {
  a = 2
}`},
			want: []diagWant{errAt("Duplicate local value definition", "main.tf:5:3")},
		},
		"InvalidLocalNameJSON": {
			files: files{"main.tf.json": `{"locals": {"1a": 1}}`},
			want:  []diagWant{errAt("Invalid local value name", "main.tf.json:1:13")},
		},
		"LocalsWithBlock": {
			files: files{"main.tf": `locals {
  a {}
}`},
			want: []diagWant{errAt("Unexpected \"a\" block", "main.tf:2:3")},
		},

		// resources and data
		"CountAndForEach": {
			files: files{"main.tf": `resource "a_b" "c" {
  count    = 1
  for_each = {}
}`},
			want: []diagWant{errAt(`Invalid combination of "count" and "for_each"`, "main.tf:3:3")},
		},
		"ProviderAsString": {
			files: files{"main.tf": `resource "a_b" "c" {
  provider = "aws.west"
}`},
			want: []diagWant{errAt("Invalid provider reference", "main.tf:2:14")},
		},
		"ProviderWithIndex": {
			files: files{"main.tf": `resource "a_b" "c" {
  provider = aws[0]
}`},
			want: []diagWant{errAt("Invalid provider configuration reference", "main.tf:2:17")},
		},
		"ProviderAliasNotDeclared": {
			files: files{"main.tf": `provider "aws" {}
resource "a_b" "c" {
  provider = aws.east
}`},
			want: []diagWant{errAt("Provider configuration not present", "main.tf:3:14")},
		},
		"DependsOnAttribute": {
			files: files{"main.tf": `resource "a_b" "c" {
  depends_on = [aws_vpc.main.id]
}`},
			want: []diagWant{errAt("Invalid depends_on reference", "main.tf:2:29")},
		},
		"DependsOnCount": {
			files: files{"main.tf": `resource "a_b" "c" {
  depends_on = [count.index]
}`},
			want: []diagWant{errAt("Invalid depends_on reference", "main.tf:2:17")},
		},
		"DependsOnString": {
			files: files{"main.tf": `resource "a_b" "c" {
  depends_on = ["aws_vpc.main"]
}`},
			want: []diagWant{errAt("Invalid depends_on reference", "main.tf:2:17")},
		},
		"DependsOnModule": {
			files: files{"main.tf": `data "a_b" "c" {
  depends_on = [module.m]
}`},
			want: []diagWant{errAt("Unsupported reference", "main.tf:2:17")},
		},
		"DependsOnExpression": {
			files: files{"main.tf": `resource "a_b" "c" {
  depends_on = [aws_vpc.main[var.i]]
}`},
			want: []diagWant{errAt("Invalid expression", "main.tf:2:17")},
		},
		"DuplicateResource": {
			files: files{"main.tf": `resource "aws_instance" "a" {}
resource "aws_instance" "a" {}`},
			want: []diagWant{errAt(`Duplicate resource "aws_instance" configuration`, "main.tf:2:25")},
		},
		"DuplicateData": {
			files: files{"main.tf": `data "aws_ami" "a" {}
data "aws_ami" "a" {}`},
			want: []diagWant{errAt(`Duplicate data "aws_ami" configuration`, "main.tf:2:16")},
		},
		"ManagedAndDataMayShareAName": {
			files: files{"main.tf": `resource "aws_ami" "a" {}
data "aws_ami" "a" {}`},
			want: nil,
		},
		"InvalidResourceName": {
			files: files{"main.tf": `resource "aws_instance" "1a" {}`},
			want:  []diagWant{errAt("Invalid resource name", "main.tf:1:25")},
		},
		"InvalidResourceType": {
			files: files{"main.tf": `resource "aws instance" "a" {}`},
			want:  []diagWant{errAt("Invalid resource type name", "main.tf:1:10")},
		},
		"InvalidDataName": {
			files: files{"main.tf": `data "aws_ami" "a.b" {}`},
			want:  []diagWant{errAt("Invalid data source name", "main.tf:1:16")},
		},
		"DataLifecycleArgument": {
			files: files{"main.tf": `data "a_b" "c" {
  lifecycle {
    prevent_destroy = true
  }
}`},
			want: []diagWant{errAt("Invalid data resource lifecycle argument", "main.tf:3:5")},
		},
		"LifecycleNotLiteral": {
			files: files{"main.tf": `resource "a_b" "c" {
  lifecycle {
    create_before_destroy = var.cbd
  }
}`},
			want: []diagWant{errAt(`Invalid value for "create_before_destroy"`, "main.tf:3:29")},
		},
		"PreventDestroyNotBool": {
			files: files{"main.tf": `resource "a_b" "c" {
  lifecycle {
    prevent_destroy = "maybe"
  }
}`},
			want: []diagWant{errAt(`Invalid value for "prevent_destroy"`, "main.tf:3:23")},
		},
		"IgnoreChangesQuoted": {
			files: files{"main.tf": `resource "a_b" "c" {
  lifecycle {
    ignore_changes = ["tags"]
  }
}`},
			want: []diagWant{errAt("Invalid ignore_changes reference", "main.tf:3:23")},
		},
		"IgnoreChangesWildcard": {
			files: files{"main.tf": `resource "a_b" "c" {
  lifecycle {
    ignore_changes = ["*"]
  }
}`},
			want: []diagWant{errAt("Invalid ignore_changes wildcard", "main.tf:3:23")},
		},
		"IgnoreChangesNotList": {
			files: files{"main.tf": `resource "a_b" "c" {
  lifecycle {
    ignore_changes = tags
  }
}`},
			want: []diagWant{errAt("Invalid ignore_changes value", "main.tf:3:22")},
		},
		"ReplaceTriggeredByVariable": {
			files: files{"main.tf": `resource "a_b" "c" {
  lifecycle {
    replace_triggered_by = [var.x]
  }
}`},
			want: []diagWant{errAt("Invalid replace_triggered_by expression", "main.tf:3:29")},
		},
		"ReplaceTriggeredByTwoResources": {
			files: files{"main.tf": `resource "a_b" "c" {
  lifecycle {
    replace_triggered_by = [join(",", [a_b.d.id, a_b.e.id])]
  }
}`},
			want: []diagWant{errAt("Invalid replace_triggered_by expression", "main.tf:3:29")},
		},
		"ReplaceTriggeredByData": {
			files: files{"main.tf": `resource "a_b" "c" {
  lifecycle {
    replace_triggered_by = [data.a_b.d]
  }
}`},
			want: []diagWant{errAt("Invalid replace_triggered_by expression", "main.tf:3:29")},
		},
		"ReplaceTriggeredByEachValue": {
			files: files{"main.tf": `resource "a_b" "c" {
  lifecycle {
    replace_triggered_by = [a_b.d[each.value]]
  }
}`},
			want: []diagWant{errAt("Invalid replace_triggered_by expression", "main.tf:3:35")},
		},
		"DuplicateLifecycle": {
			files: files{"main.tf": `resource "a_b" "c" {
  lifecycle {}
  lifecycle {}
}`},
			want: []diagWant{errAt("Duplicate lifecycle block", "main.tf:3:3")},
		},
		"Provisioner": {
			files: files{"main.tf": `resource "a_b" "c" {
  provisioner "local-exec" {}
}`},
			want: []diagWant{errAt("Unsupported block type", "main.tf:2:3")},
		},
		"ResourcePreconditionSelf": {
			files: files{"main.tf": `resource "a_b" "c" {
  lifecycle {
    precondition {
      condition     = self.ok
      error_message = "Bad."
    }
  }
}`},
			want: []diagWant{errAt("Invalid reference in precondition", "main.tf:4:23")},
		},

		// top level
		"NotYetSupportedBlocks": {
			files: files{"main.tf": `module "m" {
  source = "./m"
}
moved {}
import {}
removed {}
check "c" {}
`},
			want: []diagWant{
				errAt("Unsupported block type", "main.tf:1:1"),
				errAt("Unsupported block type", "main.tf:4:1"),
				errAt("Unsupported block type", "main.tf:5:1"),
				errAt("Unsupported block type", "main.tf:6:1"),
				errAt("Unsupported block type", "main.tf:7:1"),
			},
		},
		"UnknownBlock": {
			files: files{"main.tf": `foo {}`},
			want:  []diagWant{errAt("Unsupported block type", "main.tf:1:1")},
		},
		"TopLevelArgument": {
			files: files{"main.tf": `x = 1`},
			want:  []diagWant{errAt("Unsupported argument", "main.tf:1:1")},
		},
		"OverrideFiles": {
			files: files{"override.tf": `x = 1`, "a_override.tf.json": `{}`, "main.tf": ``},
			want: []diagWant{
				errAt("Override files are not supported yet", "a_override.tf.json:1:1"),
				errAt("Override files are not supported yet", "override.tf:1:1"),
			},
		},
		"SyntaxError": {
			files: files{"main.tf": `resource "a" "b" {`},
			want:  []diagWant{errAt("Unclosed configuration block", "main.tf:1:18")},
		},
		"JSONRootNotObject": {
			files: files{"main.tf.json": `[1]`},
			want:  []diagWant{errAt("Incorrect JSON value type", "main.tf.json:1:2")},
		},
		"JSONInvalidType": {
			files: files{"main.tf.json": `{"variable": {"x": {"type": "lisst(string)"}}}`},
			want:  []diagWant{errAt("Invalid type specification", "main.tf.json:1:30")},
		},
		"JSONTypeNotString": {
			files: files{"main.tf.json": `{"variable": {"x": {"type": 5}}}`},
			want:  []diagWant{errAt("Invalid expression string", "main.tf.json:1:29")},
		},
		"JSONProviderReference": {
			files: files{"main.tf.json": `{"resource": {"a_b": {"c": {"provider": "aws.x.y"}}}}`},
			want:  []diagWant{errAt("Invalid provider configuration reference", "main.tf.json:1:47")},
		},
		"JSONCountAndForEach": {
			files: files{"main.tf.json": `{"data": {"a_b": {"c": {"count": 1, "for_each": {}}}}}`},
			want:  []diagWant{errAt(`Invalid combination of "count" and "for_each"`, "main.tf.json:1:37")},
		},
	}
}
