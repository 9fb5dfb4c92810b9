// Package sigv4 verifies AWS Signature Version 4 on requests that Cairn's
// AWS-compatible servers receive: the Cloud Control endpoint (and its STS
// GetCallerIdentity) and the loopback DynamoDB server the S3 backend's
// tests lock against. One verifier serves both so that every server
// refuses a wrongly signed request the same way AWS does.
//
// The signature is recomputed with the AWS SDK's own signer over exactly
// the headers the client says it signed, so whichever SDK signed the
// request (aws-sdk-go v1 in Terraform 1.5.7, aws-sdk-go-v2 in OpenTofu and
// Cairn) the comparison is the one AWS makes. How a failure is reported
// (an AWS JSON exception, an STS query error) is each server's business:
// Verify returns a Failure kind.
//
// Boundary: public and small, like the rest of cloudcontrol/...; it
// imports the AWS SDK's signer and nothing of Cairn.
//
// Imports:
//
//	deny internal/... cmd/... cfnschema # public, imports nothing of the engine
package sigv4
