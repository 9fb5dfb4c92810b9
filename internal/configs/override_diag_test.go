package configs

// overrideDiagnosticCases covers the errors of override files: each kind
// of block with no base to override, and what may not be overridden.
func overrideDiagnosticCases() map[string]diagnosticCase {
	type files = map[string]string
	return map[string]diagnosticCase{
		"OverrideMissingResource": {
			files: files{"main.tf": "", "override.tf": "\nresource \"terraform_data\" \"x\" {}\n"},
			want:  []diagWant{errAt("Missing resource to override", "override.tf:2:1")},
		},
		"OverrideMissingData": {
			files: files{"main.tf": "", "b_override.tf": `data "terraform_remote_state" "x" {}`},
			want:  []diagWant{errAt("Missing data resource to override", "b_override.tf:1:1")},
		},
		"OverrideMissingVariable": {
			files: files{"main.tf": "", "override.tf": `variable "v" {}`},
			want:  []diagWant{errAt("Missing base variable declaration to override", "override.tf:1:1")},
		},
		"OverrideMissingLocal": {
			files: files{"main.tf": "locals {\n  a = 1\n}", "override.tf": "locals {\n  b = 2\n}"},
			want:  []diagWant{errAt("Missing base local value definition to override", "override.tf:2:3")},
		},
		"OverrideMissingOutput": {
			files: files{"main.tf": "", "x_override.tf.json": `{"output": {"o": {"value": 1}}}`},
			want:  []diagWant{errAt("Missing base output definition to override", "x_override.tf.json:1:18")},
		},
		"OverrideMissingAliasedProvider": {
			files: files{"main.tf": `provider "aws" {}`, "override.tf": "provider \"aws\" {\n  alias = \"w\"\n}"},
			want:  []diagWant{errAt("Missing base provider configuration for override", "override.tf:1:1")},
		},
		"OverrideDependsOn": {
			files: files{
				"main.tf":     "resource \"terraform_data\" \"a\" {}\nresource \"terraform_data\" \"b\" {}",
				"override.tf": "resource \"terraform_data\" \"b\" {\n  depends_on = [terraform_data.a]\n}",
			},
			want: []diagWant{errAt("Unsupported override", "override.tf:2:17")},
		},
		"OverrideOutputDependsOn": {
			files: files{
				"main.tf":     "output \"o\" {\n  value = 1\n}",
				"override.tf": "output \"o\" {\n  depends_on = [terraform_data.a]\n}",
			},
			want: []diagWant{errAt("Unsupported override", "override.tf:2:17")},
		},
		"OverrideImport": {
			files: files{
				"main.tf":     `resource "terraform_data" "a" {}`,
				"override.tf": "import {\n  to = terraform_data.a\n  id = \"x\"\n}",
			},
			want: []diagWant{errAt("Cannot override 'import' blocks", "override.tf:1:1")},
		},
		"OverrideTypeInvalidatesDefault": {
			files: files{
				"main.tf":     "variable \"v\" {\n  default = \"x\"\n}",
				"override.tf": "variable \"v\" {\n  type = number\n}",
			},
			want: []diagWant{errAt("Invalid default value for variable", "override.tf:1:1")},
		},
		"OverrideNullDefaultNotNullable": {
			files: files{
				"main.tf":     "variable \"v\" {\n  default = null\n}",
				"override.tf": "variable \"v\" {\n  nullable = false\n}",
			},
			want: []diagWant{errAt("Invalid default value for variable", "override.tf:1:1")},
		},
	}
}
