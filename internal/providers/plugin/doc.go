// Package plugin runs a Terraform provider binary as a plugin process and
// speaks to it over gRPC, protocol 5 or 6, whichever the binary offers,
// presenting it to the engine as a providers.Interface.
//
// The client carries no copy of Terraform's .proto files and no generated
// stubs: it calls the services through dynamic protobuf messages built
// from the descriptors terraform-plugin-go registers (tf5server and
// tf6server are imported for that side effect, and Launch checks they are
// there). A small typed layer (message.go) is the only code that touches
// fields by name; schema.go, values.go and diagnostics.go read protocol
// messages into terraform-plugin-go's tfprotov6 types, operations.go maps
// each RPC, and both protocol versions share it because their messages
// agree field by field where the engine needs them. The client speaks
// protocol 6.5 and 5.5: functions.go, metadata.go and client_functions.go
// add GetFunctions, CallFunction and GetMetadata to 6.3's RPCs;
// identity.go, list_resource.go, stream.go and client_identity.go add 6.9's
// resource identities (their schemas, upgrade, and the identity fields of
// read, plan, apply and import) and 6.10's list resources (the
// ListResource server stream, ValidateListResourceConfig and
// GenerateResourceConfig); unsupported.go lists what is still not mapped.
//
// Everything after the wire is tfproto6's: the client is a
// tfprotov6.ProviderServer that the in-process adapter wraps, so schema
// conversion, value encoding (cty msgpack) and diagnostics with attribute
// paths are the same code for in-process and out-of-process providers.
// What the client adds is the process: launching it (go-plugin, AutoMTLS,
// gRPC only), naming it in errors when it crashes or closes the
// connection, and killing it on Close.
//
// Boundary: the package knows go-plugin, gRPC, protobuf reflection,
// terraform-plugin-go's types and providers.Interface. It knows nothing of
// configuration files, planning, where binaries are installed or how a
// provider address is resolved to one; the caller passes the path.
//
// Imports:
//
//	deny internal/getproviders internal/cliconfig internal/depsfile # where binaries are installed is the caller's: it is handed a path
package plugin
