// Package server serves a Cairn provider (anything behind the engine's
// providers.Interface: awscc with every CloudFormation type, a protocol 5
// or 6 plugin, a built-in provider) as a Pulumi resource provider, over
// Pulumi's gRPC protocol (pulumirpc.ResourceProvider).
//
// Every resource operation goes through internal/lifecycle, as the engine
// and the reconciler do, so a provider answer that breaks the plugin
// contract is an error naming the provider and the resource here too.
// The mapping:
//
//   - Check: inputs to a configuration value, the schema's required and
//     read-only rules, then ValidateResourceConfig; failures carry Pulumi
//     property paths.
//   - Diff: the prior state from the old outputs, a plan
//     (PlanResourceChange) against the new inputs, and the planned change
//     as a detailed diff (internal/pulumi/diff).
//   - Create and Update: plan, then apply unless previewing; a preview
//     returns the planned state, unknowns included.
//   - Read: refresh (ReadResource) of the old outputs, or, with no old
//     outputs, import (ImportResourceState then ReadResource) by ID.
//   - Delete, Invoke (a data source read), Cancel (StopProvider).
//
// The outputs Pulumi stores are the provider's whole state object, plus
// __meta holding what Terraform keeps beside it (the schema version and
// the provider's private data), so nothing the provider needs is lost
// between operations. The provider's id attribute is the resource ID.
//
// The provider is loaded in the background when the server starts, so the
// engine's first calls (GetPluginInfo, Handshake) are answered at once
// even when loading takes a while (1,489 CloudFormation schemas). A
// package schema kept by an earlier launch (Info.Schemas) answers
// GetSchema at once too; the load then starts once that answer has been
// sent (a gRPC stats handler sees the call end), or at the first call
// that needs the provider, so as not to slow the answer.
//
// Of the Pulumi SDK it imports the protocol's generated code and the
// value model (common/resource), never the SDK's plugin-serving helpers
// (rpcutil, the provider package, resource/plugin): those link its
// command-line helpers and a terminal UI library whose init queries the
// terminal in every process, the cairn CLI included. Serve is plain gRPC
// and internal/pulumi/propwire the property codec.
//
// Boundary: the server serves any providers.Interface and knows none in
// particular (the caller's Loader makes it), and it opens no files.
//
// Imports:
//
//	deny internal/providers/... internal/builtin internal/cfnsources os # it serves whichever provider it is handed, and opens no files
//	allow internal/providers
package server
