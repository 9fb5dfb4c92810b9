// Package plugins holds the providers Cairn serves to Pulumi, as the
// adapter (internal/pulumi/server) takes them: awscc over the
// CloudFormation schemas of a run, Terraform's built-in provider, and
// the parameterized plugins: terraform-provider (any installed Terraform
// provider plugin, found as cairn init finds it) and terraform-module (a
// module as a typed component package). The
// CLI ("cairn provider serve -protocol pulumi") and the small
// pulumi-resource-* binaries share them; the binaries import nothing
// else of Cairn's command layer, so they start fast.
//
// Boundary: the one package of the Pulumi wing that knows particular
// providers: it assembles awscc (with where its schemas come from) and
// the built-in terraform provider for the adapter. A plugin binary's main
// hands it the process's arguments, environment and interrupts (as a
// context); it reads none of them itself. awscc's package schema is kept
// in the plugin cache (schemaStore), keyed by the schema set, the types
// and the build, so a launch answers GetSchema without building it.
//
// Imports:
//
//	allow internal/providers/... internal/builtin internal/cfnsources # the providers it serves, and where awscc's schemas come from
//	allow internal/plugincache # awscc's package schema, kept across launches
//	allow internal/getproviders internal/cliconfig # terraform-provider finds an installed provider plugin as cairn init does; module components read dev_overrides as the CLI does
//	allow internal/modulerun # terraform-module reads a module's interface
package plugins
