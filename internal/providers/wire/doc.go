// Package wire holds the protocol-neutral half of every adapter between
// the engine's provider interface and Terraform's plugin protocols 5 and
// 6: how cty values travel (DynamicValue bytes, msgpack with unknowns, or
// JSON), how types and attribute paths are written (terraform-plugin-go's
// tftypes, shared by both protocol versions), how protocol diagnostics
// become the engine's, and how a call into provider code is guarded so a
// panic becomes an error.
//
// The protocol 6 adapter (tfproto6) uses it; the gRPC plugin client
// (providers/plugin) reads protocol 5 and 6 messages into protocol 6's
// types and runs behind that adapter, so it shares these functions too.
//
// Boundary: the package knows cty, tftypes and the engine's diagnostics; it
// knows nothing of either protocol's message types, of schemas, or of
// which provider it serves.
//
// Imports:
//
//	deny internal/configschema github.com/hashicorp/terraform-plugin-go/tfprotov5/... github.com/hashicorp/terraform-plugin-go/tfprotov6/... # protocol-neutral: neither protocol's messages, no schemas
package wire
