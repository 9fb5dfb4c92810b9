// Package diff translates the engine's planned change of one resource
// (prior state, planned state, the paths that require replacement) into
// the parts of Pulumi's DiffResponse: changes, replaces, stables, diffs and
// the detailed diff keyed by Pulumi property paths.
//
// It is a pure function of its inputs. It must not call providers or know
// about gRPC servers; the adapter fills the response it returns.
//
// Imports:
//
//	deny internal/providers/... internal/lifecycle google.golang.org/grpc/... # a pure function: no providers, no gRPC
package diff
