// Package cfnregistry holds Cairn's built-in copy of the CloudFormation
// registry: the resource schemas of every public AWS type, compressed and
// embedded in the binary, so that the awscc provider and the Cloud Control
// endpoint work with no schemas argument and no network, exactly as awscc
// configurations are written. It also reads and writes the cache that
// "cairn cfn fetch" fills with newer schemas from a live registry.
//
// Schemas are keyed by CloudFormation type name and handed out as raw
// documents; translating them is cfnschema's job. Callers pick the types
// they need before anything is decompressed into a schema, because loading
// all 1,489 types costs about a second and most runs use a handful.
//
// Boundary: no flags, no environment (callers pass directories), nothing of
// the engine. scripts/refresh-cfn-schemas.sh rebuilds the archive.
//
// Imports:
//
//	deny internal/... cfnschema # raw documents only: translation is cfnschema's, and nothing of the engine
package cfnregistry
