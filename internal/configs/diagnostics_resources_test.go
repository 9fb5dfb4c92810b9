package configs

// resourceDiagnosticCases covers resource and data blocks, top-level blocks and file syntax.
func resourceDiagnosticCases() map[string]diagnosticCase {
	type files = map[string]string
	return map[string]diagnosticCase{
		// resources and data
		"EphemeralLifecycleArgument": {
			reason: "OpenTofu 1.12.6's error, at the lifecycle block.",
			files: files{"main.tf": `ephemeral "a_b" "c" {
  lifecycle {
    create_before_destroy = true
  }
}`},
			want: []diagWant{errAt("Invalid lifecycle configuration for ephemeral resource", "main.tf:2:3")},
		},
		"EphemeralProvisioner": {
			files: files{"main.tf": `ephemeral "a_b" "c" {
  provisioner "local-exec" {
    command = "x"
  }
  connection {}
}`},
			want: []diagWant{
				errAt("Invalid configuration block for ephemeral resource", "main.tf:2:3"),
				errAt("Invalid configuration block for ephemeral resource", "main.tf:5:3"),
			},
		},
		"EphemeralDuplicate": {
			files: files{"main.tf": `ephemeral "a_b" "c" {}
ephemeral "a_b" "c" {}`},
			want: []diagWant{errAt(`Duplicate ephemeral resource "a_b" configuration`, "main.tf:2:17")},
		},
		"EphemeralCountAndForEach": {
			files: files{"main.tf": `ephemeral "a_b" "c" {
  count    = 1
  for_each = {}
}`},
			want: []diagWant{errAt(`Invalid combination of "count" and "for_each"`, "main.tf:3:3")},
		},
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
  depends_on = [module.m.out]
}`},
			want: []diagWant{errAt("Invalid depends_on reference", "main.tf:2:17")},
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
		"ConstantPrecondition": {
			reason: "A condition that refers to nothing is a constant, so it checks nothing; Terraform refuses it.",
			files: files{"main.tf": `resource "a_b" "c" {
  lifecycle {
    precondition {
      condition     = false
      error_message = "Bad."
    }
  }
}`},
			want: []diagWant{errAt("Invalid precondition expression", "main.tf:4:23")},
		},
		"ConstantPostcondition": {
			files: files{"main.tf": `data "a_b" "c" {
  lifecycle {
    postcondition {
      condition     = "true"
      error_message = "Bad."
    }
  }
}`},
			want: []diagWant{errAt("Invalid postcondition expression", "main.tf:4:23")},
		},
		"ConstantOutputPrecondition": {
			files: files{"main.tf": `output "o" {
  value = 1
  precondition {
    condition     = [true]
    error_message = "Bad."
  }
}`},
			want: []diagWant{errAt("Invalid precondition expression", "main.tf:4:21")},
		},

		// top level
		// moved and removed: messages as Terraform 1.5.7 (moved) and 1.7 (removed) give them
		"MovedMissingArguments": {
			files: files{"main.tf": `moved {}`},
			want: []diagWant{
				errAt(`Missing required argument`, "main.tf:1:7"),
				errAt(`Missing required argument`, "main.tf:1:7"),
			},
		},
		"MovedResourceToModule": {
			files: files{"main.tf": "moved {\n  from = terraform_data.a\n  to   = module.b\n}"},
			want:  []diagWant{errAt(`Invalid "moved" addresses`, "main.tf:1:1")},
		},
		"MovedToSameAddress": {
			files: files{"main.tf": "moved {\n  from = terraform_data.a\n  to   = terraform_data.a\n}"},
			want:  []diagWant{errAt("Redundant move statement", "main.tf:1:1")},
		},
		"MovedAcrossTypes": {
			// Terraform 1.8: allowed here; planning asks the target provider.
			files: files{"main.tf": "moved {\n  from = terraform_data.a\n  to   = null_resource.a\n}"},
		},
		"MovedExpression": {
			files: files{"main.tf": "moved {\n  from = terraform_data.a[var.x]\n  to   = terraform_data.b\n}"},
			want:  []diagWant{errAt("Invalid expression", "main.tf:2:10")},
		},
		"MovedNotAResource": {
			files: files{"main.tf": "moved {\n  from = foo\n  to   = terraform_data.b.c\n}"},
			want: []diagWant{
				errAt("Invalid address", "main.tf:2:10"),
				errAt("Invalid address", "main.tf:3:10"),
			},
		},
		"MovedInstanceAndWholeResource": {
			reason: "a whole resource moved to one instance is its unkeyed instance, as in Terraform",
			files:  files{"main.tf": "moved {\n  from = terraform_data.a\n  to   = terraform_data.a[0]\n}"},
			want:   nil,
		},
		"MovedIntoModule": {
			files: files{"main.tf": "moved {\n  from = terraform_data.a\n  to   = module.m[\"k\"].terraform_data.a\n}"},
			want:  nil,
		},
		"MovedJSON": {
			files: files{"main.tf.json": `{"moved": [{"from": "terraform_data.a", "to": "terraform_data.b"}]}`},
			want:  nil,
		},
		"MovedJSONNotAnAddress": {
			files: files{"main.tf.json": `{"moved": [{"from": "terraform_data.a", "to": "terraform_data"}]}`},
			want:  []diagWant{errAt("Invalid address", "main.tf.json:1:47")},
		},
		"MovedInOverride": {
			files: files{"main.tf": "", "override.tf": "moved {\n  from = terraform_data.a\n  to   = terraform_data.b\n}"},
			want:  []diagWant{errAt("Cannot override 'moved' blocks", "override.tf:1:1")},
		},
		"RemovedInstanceKey": {
			files: files{"main.tf": "removed {\n  from = terraform_data.a[0]\n  lifecycle {\n    destroy = false\n  }\n}"},
			want:  []diagWant{errAt("Resource instance keys not allowed", "main.tf:2:26")},
		},
		"RemovedModuleInstanceKey": {
			files: files{"main.tf": "removed {\n  from = module.a[0]\n}"},
			want:  []diagWant{errAt("Module instance keys not allowed", "main.tf:2:18")},
		},
		"RemovedDestroyNotBool": {
			files: files{"main.tf": "removed {\n  from = terraform_data.a\n  lifecycle {\n    destroy = \"no\"\n  }\n}"},
			want:  []diagWant{errAt("Unsuitable value type", "main.tf:4:16")},
		},
		"RemovedDataSource": {
			files: files{"main.tf": "removed {\n  from = data.terraform_remote_state.a\n}"},
			want:  []diagWant{errAt("Data source address is not allowed", "main.tf:2:10")},
		},
		"RemovedDuplicateLifecycle": {
			files: files{"main.tf": "removed {\n  from = terraform_data.a\n  lifecycle {}\n  lifecycle {}\n}"},
			want:  []diagWant{errAt("Duplicate lifecycle block", "main.tf:4:3")},
		},
		"RemovedProvisionerNotDestroy": {
			files: files{"main.tf": "removed {\n  from = terraform_data.a\n  provisioner \"local-exec\" {\n    command = \"echo\"\n  }\n}"},
			want:  []diagWant{errAt(`Invalid "removed.provisioner" block`, "main.tf:3:3")},
		},
		"RemovedProvisionerModule": {
			files: files{"main.tf": "removed {\n  from = module.m\n  provisioner \"local-exec\" {\n    when    = destroy\n    command = \"echo\"\n  }\n}"},
			want:  []diagWant{errAt(`Invalid "removed" block`, "main.tf:1:1")},
		},
		"RemovedProvisionerDestroyed": {
			reason: "Cairn runs no provisioners, and this one would run",
			files:  files{"main.tf": "removed {\n  from = terraform_data.a\n  provisioner \"local-exec\" {\n    when    = destroy\n    command = \"echo\"\n  }\n}"},
			want:   []diagWant{errAt("Unsupported block type", "main.tf:3:3")},
		},
		"RemovedProvisionerForgotten": {
			reason: "a forgotten object runs no provisioner: OpenTofu's warning",
			files:  files{"main.tf": "removed {\n  from = terraform_data.a\n  lifecycle {\n    destroy = false\n  }\n  connection {\n    host = \"h\"\n  }\n  provisioner \"local-exec\" {\n    when    = destroy\n    command = \"echo\"\n  }\n}"},
			want:   []diagWant{warnAt("Removed block provisioners will not be executed", "main.tf:1:1")},
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
			want:  []diagWant{errAt("Unsupported argument", "override.tf:1:1")},
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
