// Package objchange holds the pure functions of the resource-instance change
// lifecycle: computing the Proposed New State the engine offers a provider,
// and checking every answer a provider gives against the contract of plugin
// protocol v6 (what a plan may change, what the final plan and the applied
// result must keep, that read and upgraded objects are wholly known).
//
// Checks return errors carrying the attribute path, written for provider
// developers; the caller adds which provider and which resource instance.
// Values printed in messages are redacted where the attribute is sensitive
// or the value carries the sensitive mark.
//
// Nothing here does I/O or knows about graphs, state files or providers'
// implementations.
//
// Imports:
//
//	deny internal/... os net/... # pure functions: no I/O, graphs, state or providers
//	allow internal/configschema internal/marks
//	allow internal/diags # attribute paths are written as every message writes them (diags.FormatPath)
package objchange
