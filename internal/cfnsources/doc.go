// Package cfnsources says where a run's CloudFormation resource schemas
// come from and loads them into a catalog: the schemas built into Cairn,
// laid over by the cache "cairn cfn fetch" fills, then by directories the
// user names. The CLI and the provider plugins (Terraform's and Pulumi's)
// share it, so every way of serving awscc serves the same types.
//
// For the plugins, which start many times over the same schemas, it also
// digests a set (Digest: what keys their cache) and indexes a loaded
// catalog (Index), from which LoadEntry translates one type alone, as the
// whole set's catalog holds it.
//
// Boundary: sources and the type filter only. The package knows the
// built-in registry (cfnregistry) and schema loading (cfnschema), never a
// provider or a command: the caller passes the environment's values and
// the directories.
//
// Imports:
//
//	deny internal/... # where schemas come from, not what serves them
//	allow internal/cfnregistry
package cfnsources
