// Package schema builds the Pulumi package schema of a Cairn provider from
// the provider's own schema, so a Pulumi program (and Pulumi's SDK
// generators) can type-check and complete what the adapter serves.
//
// The shape follows Pulumi's bridged providers, which Pulumi users know:
// tokens from internal/pulumi/tokens (awscc:s3/bucket:Bucket,
// awscc:s3/getBucket:getBucket), camelCase property names, nested objects
// as named types (awscc:s3/BucketTag:BucketTag), inputs apart from
// outputs, and sensitive attributes marked secret. The package's module
// format takes the service from a token's module (s3/bucket is module s3).
//
// The types here are the JSON document only, written for this package: the
// spec types of Pulumi's pkg module cannot be imported by Cairn's module
// (see scripts/install-pulumi.sh). The result is checked against Pulumi's
// metaschema and binder by scripts/pulumi-schema-check in the tests.
//
// Boundary: the package knows a provider's schemas, nothing of what the
// provider does (no lifecycle) and nothing of gRPC.
//
// Imports:
//
//	deny internal/lifecycle google.golang.org/grpc/... # schemas only: not providers' behaviour, not gRPC
package schema
