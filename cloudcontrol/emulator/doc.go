// Package emulator is a cloudcontrol.Handler that serves any CloudFormation
// resource schema without an AWS account: it validates desired models
// against the schema, fills the schema's defaults, invents the primary
// identifier and the read-only values in the shapes AWS uses (vpc-…, AROA…,
// real ARNs) and keeps models in a cloudcontrol.Store.
//
// Values are drawn from a random source seeded by the request's
// ClientToken, so a create step that runs again after a crash names the
// same resource; a token→identifier record under a reserved type name in
// the Store recognises such a re-run.
//
// Boundary: the emulator knows schemas and models, nothing of the wire
// protocol. The endpoint (cloudcontrol/server) applies patches, refuses
// createOnly changes, handles faults and hides writeOnly values; this
// package imports only cloudcontrol and the JSON-Schema validator, never
// internal/ or the endpoint's storage engine.
//
// Imports:
//
//	deny net/... # the emulator knows schemas and models, nothing of the wire protocol
package emulator
