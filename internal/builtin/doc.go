// Package builtin holds the providers compiled into Cairn: today the
// "terraform" provider (terraform.io/builtin/terraform) with its
// terraform_data resource and terraform_remote_state data source, so
// configurations written for Terraform run unchanged. Built-in providers
// implement providers.Interface directly, on cty values, with no encoding
// between engine and provider.
//
// terraform_remote_state reads another configuration's local state through
// statemgr's read-only Read, so that it sees a crashed apply's journal the
// way every other reader does and never writes, locks or recovers someone
// else's state. That is the one import of state storage here; the package
// knows nothing of the command layer, flags or the environment (the
// working directory comes in as TerraformProvider.Dir).
//
// Imports:
//
//	deny internal/command internal/planning internal/applying internal/backends/... internal/states/statefile # a provider the engine calls, never the reverse; state storage only through statemgr's read-only Read
package builtin
