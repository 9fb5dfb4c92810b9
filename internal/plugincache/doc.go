// Package plugincache keeps what a provider plugin process derives from
// its inputs and would otherwise derive again at every launch: the
// translated CloudFormation schemas (Terraform's GetProviderSchema answer
// and the index of types) and Pulumi's package schema. Terraform 1.5
// launches a plugin several times per command and asks each launch for
// the whole schema, so translating 1,489 schemas once per launch cost
// seconds per plan.
//
// An entry is keyed by its inputs (the schema set's digest, the served
// types) and by the running executable's Go build ID, which changes
// whenever any of Cairn's code does, so a changed schema set or a changed
// translator never meets an entry made from another. Entries are written
// atomically (a temporary file renamed into place) and carry a CRC-32C of
// their content: a torn, truncated or foreign file reads as absent, and
// the caller derives the value again. A cache that cannot be read or
// written never fails a launch. Prune keeps the most recent entries of a
// kind, so rebuilds and new schema sets do not fill the disk.
//
// Boundary: bytes under names in one directory, nothing of what they
// hold. The caller passes the directory (Dir reads it from the
// environment the caller hands in).
//
// Imports:
//
//	deny internal/... cfnschema cloudcontrol/... # a cache of bytes: what they mean is its callers'
package plugincache
