// Package pulumi holds no code: its subpackages serve Cairn's providers to
// Pulumi, and this comment states the boundary they share.
//
//   - tokens: Pulumi type tokens of resource types and data sources;
//   - propval: cty values to Pulumi property values and back;
//   - diff: a planned change as the parts of Pulumi's DiffResponse;
//   - schema: a provider's schema as a Pulumi package schema;
//   - server: any provider as a Pulumi resource provider over gRPC;
//   - importfile: a provider's list resources as `pulumi import --file`'s
//     bulk file, IDs from identities;
//   - plugins: the providers Cairn serves to Pulumi, for the
//     pulumi-resource-* binaries and "cairn provider serve -protocol
//     pulumi".
//
// docs/design/pulumi.md describes the adapter.
//
// Boundary: the Pulumi wing is a front end, as the reconciler is. It
// reaches the engine only through lifecycle (every resource operation,
// with the contract checks), providers (the provider contract) and addrs,
// and the values those speak in (configschema, diags, marks, states); it
// imports no other engine package and no other front end (crds,
// reconciler, command). The rules below hold for every package under
// internal/pulumi; a subpackage's doc.go narrows them.
//
// Imports:
//
//	deny internal/... # pulumi/... imports of the engine only lifecycle, providers and addrs (and configschema, diags, marks and states, the values those speak in)
//	allow internal/lifecycle internal/providers internal/addrs
//	allow internal/configschema internal/diags internal/marks internal/states
//	allow internal/fieldname # the snake_case to camelCase naming both front ends share
//	allow internal/modulerun internal/plans # a Terraform module as a component (Construct): modulerun runs it in process; plans names its modes and actions
//	allow internal/pulumi/...
package pulumi
