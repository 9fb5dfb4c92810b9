// Package propwire reads and writes Pulumi property values
// (resource.PropertyMap) in the form they travel in over Pulumi's gRPC
// protocols: protobuf Structs whose special values (secrets, unknowns,
// resource references, output values, assets) are objects marked with
// Pulumi's signature key, or sentinel strings.
//
// It speaks the form Pulumi's own codec (the SDK's resource/plugin
// package, MarshalProperties and UnmarshalProperties) writes with
// unknowns, secrets and resource references kept, and the tests hold it
// to that codec. It exists because that package links the SDK's command
// line helpers and through them a terminal UI library whose init queries
// the terminal; every binary that serves Pulumi (the cairn CLI too)
// would pay for that at start-up.
//
// It must not import the Pulumi SDK beyond its value model
// (common/resource and the packages that defines), the engine, or
// gRPC servers.
package propwire
