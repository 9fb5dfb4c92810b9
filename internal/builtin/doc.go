// Package builtin holds the providers compiled into Cairn: today the
// "terraform" provider (terraform.io/builtin/terraform) with its
// terraform_data resource, so configurations written for Terraform run
// unchanged. Built-in providers implement providers.Interface directly, on
// cty values, with no encoding between engine and provider.
package builtin
