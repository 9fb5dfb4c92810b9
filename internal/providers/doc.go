// Package providers holds the engine's provider contract: the operations of
// Terraform plugin protocol v6, taking and returning cty values in-process,
// and the registry that finds a provider implementation for a source
// address.
//
// The interface is deliberately protocol-shaped (request and response
// structs, one method per RPC) so that adapters stay thin: an in-process
// terraform-plugin-go server, a gRPC plugin process speaking protocol 5 or 6,
// or Cairn's built-in providers all satisfy it. Built-in providers run on the
// fast path with no encoding at all.
//
// Protocol features a provider may lack are optional interfaces beside
// Interface, checked by type assertion: IdentityProvider (resource
// identities, protocol 6.9) and ListResourceProvider (list resources,
// 6.10). The identity values they imply travel in the request and
// response structs of Interface, cty.NilVal where there are none.
//
// The package knows nothing of planning: the rules about what a provider's
// answers may contain live in objchange, and the engine checks them.
//
// Imports:
//
//	deny internal/planning internal/applying internal/lifecycle internal/objchange internal/plans internal/configs internal/states/... # the contract knows nothing of planning; the rules on a provider's answers are objchange's
package providers
