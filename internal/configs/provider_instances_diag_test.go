package configs

// providerInstanceDiagnosticCases covers provider for_each (OpenTofu 1.9)
// and the references that select one of its instances; the summaries and
// locations are OpenTofu 1.12.6's.
func providerInstanceDiagnosticCases() map[string]diagnosticCase {
	type files = map[string]string
	const byRegion = "provider \"aws\" {\n  alias    = \"r\"\n  for_each = var.regions\n  region   = each.value\n}\nvariable \"regions\" {}\n"
	const child = "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}\nresource \"aws_s3_bucket\" \"b\" {}\n"
	return map[string]diagnosticCase{
		"ProviderForEachValid": {
			reason: "a keyed reference from a resource and from a module call is the feature itself",
			files: files{"main.tf": byRegion + "resource \"aws_s3_bucket\" \"b\" {\n  for_each = var.buckets\n  provider = aws.r[each.value]\n}\nvariable \"buckets\" {}\nmodule \"m\" {\n  source    = \"./m\"\n  for_each  = var.buckets\n  providers = { aws = aws.r[each.key] }\n}\n",
				"m/main.tf": child},
		},
		"ProviderForEachJSON": {
			reason: "JSON spells the reference as a string of native syntax, key expression included",
			files: files{"main.tf.json": `{
  "variable": {"regions": {}},
  "provider": {"aws": [{"alias": "r", "for_each": "${var.regions}", "region": "${each.value}"}]},
  "resource": {"aws_s3_bucket": {
    "b": {"for_each": "${var.regions}", "provider": "aws.r[each.key]"},
    "c": {"provider": "aws.r[\"us\"]"}
  }}
}`},
		},
		"ProviderForEachJSONWithoutKey": {
			files: files{"main.tf.json": `{
  "variable": {"regions": {}},
  "provider": {"aws": [{"alias": "r", "for_each": "${var.regions}"}]},
  "resource": {"aws_s3_bucket": {"c": {"provider": "aws.r"}}}
}`},
			want: []diagWant{errAt("Invalid resource provider configuration", "main.tf.json:4:53")},
		},
		"ProviderForEachConstantKey": {
			files: files{"main.tf": byRegion + "data \"aws_region\" \"d\" {\n  provider = aws.r[\"us\"]\n}\n"},
		},
		"ProviderForEachWithoutAlias": {
			reason: "instances are told apart by key, and only an aliased configuration may have them",
			files:  files{"main.tf": "provider \"aws\" {\n  for_each = {}\n}\n"},
			want:   []diagWant{errAt(`Alias required when using "for_each"`, "main.tf:2:14")},
		},
		"ProviderForEachAndCount": {
			reason: "count stays reserved in a provider block",
			files:  files{"main.tf": "provider \"aws\" {\n  alias = \"r\"\n  count = 1\n  for_each = {}\n}\n"},
			want:   []diagWant{errAt("Reserved argument name in provider block", "main.tf:3:3")},
		},
		"ResourceWithoutInstanceKey": {
			files: files{"main.tf": byRegion + "resource \"aws_s3_bucket\" \"b\" {\n  provider = aws.r\n}\n"},
			want:  []diagWant{errAt("Invalid resource provider configuration", "main.tf:8:14")},
		},
		"InstanceKeyWithoutForEach": {
			files: files{"main.tf": "provider \"aws\" {\n  alias  = \"r\"\n  region = \"x\"\n}\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.r[\"x\"]\n}\n"},
			want:  []diagWant{errAt("Invalid resource provider configuration", "main.tf:6:14")},
		},
		"InstanceKeyWithoutBlock": {
			reason: "an empty aliased block does not count as declaring the configuration, as in OpenTofu",
			files:  files{"main.tf": "provider \"aws\" {\n  alias  = \"r\"\n}\nresource \"aws_s3_bucket\" \"b\" {\n  provider = aws.r[\"x\"]\n}\n"},
			want:   []diagWant{errAt("Invalid resource provider configuration", "main.tf:5:14")},
		},
		"InstanceKeyExprWithoutAlias": {
			files: files{"main.tf": "resource \"aws_s3_bucket\" \"b\" {\n  for_each = {}\n  provider = aws[each.key]\n}\n"},
			want:  []diagWant{errAt("Invalid provider configuration reference", "main.tf:3:14")},
		},
		"InstanceKeyTwice": {
			files: files{"main.tf": byRegion + "resource \"aws_s3_bucket\" \"b\" {\n  provider = aws.r[\"a\"][\"b\"]\n}\n"},
			want:  []diagWant{errAt("Invalid provider configuration reference", "main.tf:8:14")},
		},
		"ModuleChildSideKey": {
			files: files{"main.tf": byRegion + "module \"m\" {\n  source    = \"./m\"\n  providers = { aws[\"x\"] = aws.r[\"x\"] }\n}\n", "m/main.tf": child},
			want:  []diagWant{errAt("Invalid provider configuration reference", "main.tf:9:20")},
		},
		"ModulePassesCollection": {
			files: files{"main.tf": byRegion + "module \"m\" {\n  source    = \"./m\"\n  providers = { aws = aws.r }\n}\n", "m/main.tf": child},
			want:  []diagWant{errAt("Invalid module provider configuration", "main.tf:9:23")},
		},
		"ResourceForEachMatchesProvider": {
			reason: "removing an element would remove the provider instance its objects need to be destroyed",
			files:  files{"main.tf": byRegion + "resource \"aws_s3_bucket\" \"b\" {\n  for_each = var.regions\n  provider = aws.r[each.key]\n}\n"},
			want:   []diagWant{warnAt("Provider configuration for_each matches resource", "main.tf:8:14")},
		},
		"ModuleForEachMatchesProvider": {
			files: files{"main.tf": byRegion + "module \"m\" {\n  source    = \"./m\"\n  for_each  = (var.regions)\n  providers = { aws = aws.r[each.key] }\n}\n", "m/main.tf": child},
			want:  []diagWant{warnAt("Provider configuration for_each matches module", "main.tf:9:15")},
		},
	}
}
