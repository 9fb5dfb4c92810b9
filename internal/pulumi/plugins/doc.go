// Package plugins holds the providers Cairn serves to Pulumi, as the
// adapter (internal/pulumi/server) takes them: awscc over the
// CloudFormation schemas of a run, and Terraform's built-in provider. The
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
//	allow internal/cliconfig # dev_overrides for the plugin providers of module components, read as the CLI reads them
package plugins
