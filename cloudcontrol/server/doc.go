// Package server is Cairn's Cloud Control-compatible endpoint: an
// http.Handler that speaks the AWS Cloud Control API wire protocol (AWS
// JSON 1.0, X-Amz-Target: CloudApiService.<Op>) so that the AWS SDKs, the
// AWS CLI and terraform-provider-awscc use it unmodified, plus STS
// GetCallerIdentity, which AWS tools call before anything else.
//
// The server does everything that is generic over resource types: request
// tokens and asynchronous progress, ClientToken idempotency, one operation
// at a time per resource, JSON Patch for UpdateResource, refusing changes
// to createOnlyProperties, leaving writeOnlyProperties out of answers,
// durability of request records (RequestStore) and resuming unfinished
// requests after a restart, injected faults for tests, SigV4 verification.
// What a type does is its cloudcontrol.Handler's business.
//
// Boundary: imports package cloudcontrol (the handler contract) and the
// AWS SDK's signer; never a storage engine (the RequestStore is passed
// in) and nothing under internal/.
//
// Imports:
//
//	deny cloudcontrol/emulator # what a type does is its Handler's business
package server
