package configs

// terraformDiagnosticCases covers terraform, required_providers and provider blocks.
func terraformDiagnosticCases() map[string]diagnosticCase {
	type files = map[string]string
	return map[string]diagnosticCase{
		// terraform blocks
		"UnsupportedBackend": {
			files: files{"main.tf": `terraform {
  backend "gcs" {}
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
		},
		"ProviderMetaDuplicate": {
			files: files{"main.tf": `terraform {
  provider_meta "aws" {}
}
terraform {
  provider_meta "aws" {
    module_name = "x"
  }
}`},
			want: []diagWant{errAt("Duplicate provider_meta block", "main.tf:5:17")},
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
	}
}
