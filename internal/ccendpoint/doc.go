// Package ccendpoint assembles a ready-to-run Cloud Control endpoint: the
// wire protocol (cloudcontrol/server) over a durable bbolt store
// (cloudcontrol/boltstore), serving every type of the built-in
// CloudFormation schemas — laid over by directories of private or newer
// ones — with the schema-driven emulator (cloudcontrol/emulator), plus the
// CloudFormation registry calls (ListTypes, DescribeType) that "cairn cfn
// fetch" makes. "cairn cloudcontrol serve", the quickstart and end-to-end
// tests start endpoints this way, so they all run the same thing.
//
// Boundary: assembly only. Protocol, storage and emulation live in their
// packages; this one knows where schemas come from and how to listen.
//
// Imports:
//
//	deny internal/... # the endpoint stands apart from the engine
//	allow internal/cfnregistry # the built-in schemas it serves
package ccendpoint
