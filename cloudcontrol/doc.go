// Package cloudcontrol holds the contract between Cairn's Cloud
// Control-compatible endpoint and the resource types it serves: a resource
// type is a CloudFormation resource schema plus a Handler that creates,
// reads, updates, deletes and lists its resources, one progress event at a
// time, the way CloudFormation's own resource handlers work.
//
// The endpoint (package cloudcontrol/server) speaks the AWS Cloud Control
// API wire protocol and does everything that is generic over types: request
// tokens and asynchronous progress, ClientToken idempotency, applying
// UpdateResource's JSON Patch to the current model, refusing changes to
// createOnlyProperties, leaving writeOnlyProperties out of every answer.
// A Handler only does what is particular to its type. The schema-driven
// emulator (package cloudcontrol/emulator) is one Handler that serves any
// schema; authors of private types implement Handler themselves.
//
// Pointer is the one parser of the JSON pointers schemas are written with
// (RFC 6901, plus CloudFormation's "*" for array elements), shared by the
// endpoint, the emulator and cfnschema; ScalarText is likewise the one
// reading of a scalar JSON value as text (identifiers, string defaults,
// enums).
//
// Boundary: this package is public and small. It imports nothing under
// internal/ and nothing of the endpoint's transport or storage engine.
//
// Imports:
//
//	deny internal/... cmd/... cfnschema # cloudcontrol/... is public and imports nothing of the engine
//	deny cloudcontrol/server cloudcontrol/boltstore go.etcd.io/... # the contract and the handlers know no transport; the storage engine is boltstore's alone
package cloudcontrol
