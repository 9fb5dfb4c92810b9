// Package tfproto6 runs a terraform-plugin-go protocol 6 server in-process
// as a providers.Interface, so any provider written with
// terraform-plugin-go or terraform-plugin-framework
// (providerserver.NewProtocol6(p)()) runs inside the engine with no plugin
// process and no gRPC.
//
// The adapter translates at its boundary, exactly as Terraform does on the
// wire: schemas (tfprotov6.Schema → configschema.Block), values (cty ↔
// DynamicValue as cty msgpack with the schema's implied type, unknowns
// included), attribute paths (tftypes.AttributePath ↔ cty.Path) and
// diagnostics. Everything about that translation that protocol 5 shares
// lives in package wire; this package maps protocol 6's message types
// onto it. It asks the server for its schema once per adapter, or once
// per SchemaCache shared by the adapters of one provider.
//
// Boundary: the package knows providers.Interface, configschema and
// terraform-plugin-go; it knows nothing of planning, configuration files or
// which provider it serves.
//
// Imports:
//
//	deny internal/providers/awscc internal/builtin # it runs any protocol 6 server and knows none
package tfproto6
