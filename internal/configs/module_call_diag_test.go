package configs

// moduleDiagnosticCases covers the errors of module calls and of the
// module tree: sources Cairn cannot load, cycles, arguments that do not
// match the child's variables, and provider configurations that cannot be
// found.
func moduleDiagnosticCases() map[string]diagnosticCase {
	type files = map[string]string
	return map[string]diagnosticCase{
		"ModuleRemoteSource": {
			files: files{"main.tf": "module \"m\" {\n  source = \"hashicorp/consul/aws\"\n}\n"},
			want:  []diagWant{errAt("Module not installed", "main.tf:1:1")},
		},
		"ModuleSourceNotLiteral": {
			reason: "a source built from variables needs the command's static scope, which a bare load has not",
			files:  files{"main.tf": "module \"m\" {\n  source = var.x\n}\n"},
			want:   []diagWant{errAt("Unable to compute static value", "main.tf:2:12")},
		},
		"ModuleSourceNotString": {
			files: files{"main.tf": "module \"m\" {\n  source = 1\n}\n"},
			want:  []diagWant{errAt("Invalid module source address", "main.tf:2:12")},
		},
		"ConstSensitive": {
			reason: "const excludes sensitive (Terraform 1.15)",
			files:  files{"main.tf": "variable \"x\" {\n  sensitive = true\n  const     = true\n}\n"},
			want:   []diagWant{errAt("Invalid const variable", "main.tf:3:3")},
		},
		"ConstEphemeral": {
			reason: "const excludes ephemeral (Terraform 1.15)",
			files:  files{"main.tf": "variable \"x\" {\n  ephemeral = true\n  const     = true\n}\n"},
			want:   []diagWant{errAt("Invalid const variable", "main.tf:3:3")},
		},
		"ConstNotBool": {
			files: files{"main.tf": "variable \"x\" {\n  const = var.y\n}\n"},
			want:  []diagWant{errAt(`Invalid value for "const"`, "main.tf:2:11")},
		},
		"ModuleMissingSource": {
			files: files{"main.tf": "module \"m\" {\n}\n"},
			want:  []diagWant{errAt("Missing required argument", "main.tf:1:12")},
		},
		"ModuleVersionOnLocal": {
			files: files{"main.tf": "module \"m\" {\n  source = \"./m\"\n  version = \"1.0.0\"\n}\n"},
			want:  []diagWant{errAt("Invalid registry module source address", "main.tf:3:13")},
		},
		"ModuleDuplicate": {
			files: files{"main.tf": "module \"m\" {\n  source = \"./m\"\n}\nmodule \"m\" {\n  source = \"./m\"\n}\n"},
			want:  []diagWant{errAt("Duplicate module call", "main.tf:4:8")},
		},
		"ModuleCountAndForEach": {
			files: files{"main.tf": "module \"m\" {\n  source = \"./m\"\n  count = 1\n  for_each = {}\n}\n"},
			want:  []diagWant{errAt(`Invalid combination of "count" and "for_each"`, "main.tf:4:3")},
		},
		"ModuleReservedBlock": {
			files: files{"main.tf": "module \"m\" {\n  source = \"./m\"\n  locals {}\n}\n"},
			want:  []diagWant{errAt("Reserved block type name in module block", "main.tf:3:3")},
		},
		"ModuleEnabledWithCount": {
			files: files{"main.tf": "module \"m\" {\n  source = \"./m\"\n  count = 1\n  lifecycle {\n    enabled = true\n  }\n}\n", "m/main.tf": ""},
			want:  []diagWant{errAt(`Invalid combination of "count" and "enabled"`, "main.tf:5:5")},
		},
		"ModuleEnabledWithForEach": {
			files: files{"main.tf": "module \"m\" {\n  source = \"./m\"\n  for_each = {}\n  lifecycle {\n    enabled = true\n  }\n}\n", "m/main.tf": ""},
			want:  []diagWant{errAt(`Invalid combination of "enabled" and "for_each"`, "main.tf:5:5")},
		},
		"ModuleCycle": {
			files: files{
				"main.tf":   "module \"a\" {\n  source = \"./a\"\n}\n",
				"a/main.tf": "module \"again\" {\n  source = \"../a\"\n}\n",
			},
			want: []diagWant{errAt("Module call cycle", "a/main.tf:2:12")},
		},
		"ModuleSelfCycle": {
			files: files{"main.tf": "module \"me\" {\n  source = \"./\"\n}\n"},
			want:  []diagWant{errAt("Module call cycle", "main.tf:2:12")},
		},
		"ModuleUnsupportedArgument": {
			files: files{
				"main.tf":   "module \"a\" {\n  source = \"./a\"\n  nope = 1\n}\n",
				"a/main.tf": "",
			},
			want: []diagWant{errAt("Unsupported argument", "main.tf:3:3")},
		},
		"ModuleMissingArgument": {
			files: files{
				"main.tf":   "module \"a\" {\n  source = \"./a\"\n}\n",
				"a/main.tf": "variable \"needed\" {}\nvariable \"optional\" {\n  default = 1\n}\n",
			},
			want: []diagWant{errAt("Missing required argument", "main.tf:1:1")},
		},
		"ModuleChildErrorsNamedByPath": {
			files: files{
				"main.tf":        "module \"a\" {\n  source = \"./modules/a\"\n}\n",
				"modules/a/x.tf": "resource \"x\" {}\n",
			},
			want: []diagWant{errAt("Missing name for resource", "modules/a/x.tf:1:14")},
		},
		"ModuleProvidersWithCount": {
			files: files{
				"main.tf":   "module \"a\" {\n  source = \"./a\"\n  count = 2\n}\n",
				"a/main.tf": "provider \"aws\" {}\n",
			},
			want: []diagWant{errAt("Module is incompatible with count, for_each, and depends_on", "main.tf:1:8")},
		},
		"ModuleAliasNotPassed": {
			files: files{
				"main.tf":   "module \"a\" {\n  source = \"./a\"\n}\n",
				"a/main.tf": "resource \"aws_x\" \"y\" {\n  provider = aws.west\n}\n",
			},
			want: []diagWant{errAt("Provider configuration not present", "a/main.tf:2:14")},
		},
	}
}
