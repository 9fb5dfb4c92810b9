// Package tokens names a provider's resource types and data sources the way
// Pulumi's bridged providers do, so that programs written for a bridged
// provider read naturally against a Cairn provider: awscc_s3_bucket is the
// resource awscc:s3/bucket:Bucket, and the data source awscc_s3_buckets is
// the function awscc:s3/getBuckets:getBuckets.
//
// It holds only names. It must not import the engine, schemas or Pulumi's
// SDK: the adapter and the schema generator both build on it.
//
// Imports:
//
//	deny internal/... github.com/pulumi/... # names only: no engine, schemas or Pulumi SDK
package tokens
