package configs

// valueDiagnosticCases covers variables, outputs and locals.
func valueDiagnosticCases() map[string]diagnosticCase {
	type files = map[string]string
	return map[string]diagnosticCase{
		// outputs
		"OutputInvalidType": {
			reason: "An output's type is read as a variable's (Terraform 1.15).",
			files: files{"main.tf": `output "x" {
  type  = lisst(string)
  value = []
}`},
			want: []diagWant{errAt("Invalid type specification", "main.tf:2:11")},
		},
		"OutputQuotedType": {
			files: files{"main.tf": `output "x" {
  type  = "string"
  value = "a"
}`},
			want: []diagWant{errAt("Invalid quoted type constraints", "main.tf:2:11")},
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
			want: []diagWant{errAt("Invalid variable validation condition", "main.tf:3:21")},
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
	}
}
