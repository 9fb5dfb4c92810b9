// Package s3 keeps state in an S3 bucket exactly as Terraform's and
// OpenTofu's backend "s3" do, so that the tools share one bucket:
//
//   - the default workspace's state is the object at key; workspace W's
//     is at workspace_key_prefix/W/key ("env:/W/key" by default). The
//     workspaces are listed from the objects under the prefix whose key
//     is exactly prefix/NAME/key, so lock objects, journals and other
//     configurations' keys are never taken for workspaces; "default" is
//     always listed. A listing refused with AccessDenied lists only
//     "default", as in Terraform.
//   - the state object holds the bytes the local backend writes to
//     terraform.tfstate (statefile's encoding), through the state
//     transform when one is set (OpenTofu's state encryption). An empty
//     object is no state, as in Terraform; one that is not a state, or
//     does not decrypt, is a *statemgr.UnreadableError and is never
//     overwritten except by a forced Import.
//   - with use_lockfile, a run locks a workspace by creating the object
//     key+".tflock" with a conditional write (If-None-Match: *); its body
//     is the lock info JSON Terraform and OpenTofu write (ID, Operation,
//     Info, Who, Version, Created, Path, Path being "bucket/key"), so each
//     tool's refusal names the other's holder. Unlock reads it back,
//     checks the ID and deletes it. A conditional write whose
//     acknowledgement was lost is recognised as ours by its ID on retry.
//   - with dynamodb_table, a run locks with the item LockID "bucket/key"
//     and records the MD5 of every state object it writes in the item
//     "bucket/key-md5" (package dynamolock, reached through the
//     dynamoLocker interface). A read whose object does not match the
//     digest is retried every 2 s for 10 s, then refused
//     (*DigestMismatchError), as Terraform does. With both set, both locks
//     are taken, the object first, and the object is given back when the
//     item cannot be had. Without either, nothing locks, as in Terraform.
//   - DeleteWorkspace deletes the state object, a crashed apply's journal
//     and the digest; a lock object is its holder's to delete.
//
// A lock object, unlike a database session's lock, outlives a run that
// dies; ForceUnlock with its ID breaks it, and Backend.Close gives back
// the locks its managers still hold.
//
// # The apply journal
//
// Cairn adds objects Terraform never reads: during an apply every
// finished object is recorded under key+".cairn-journal/" before the
// engine is told it is saved, so that a killed run loses nothing, while
// the state object is written once, by Close, after which the journal is
// deleted. The header object (sequence 0, applyjournal.Header) names the
// snapshot the apply started from; each later object holds a group of
// records (a JSON array of records as package applyjournal encodes them,
// each sealed on its own by the transform), named for its first record's
// zero-padded sequence number so that S3's listing is the journal's
// order. Groups are committed one after another (applyjournal's
// GroupWriter: whatever was recorded while one PUT was in flight is the
// next PUT), so the objects form an unbroken sequence: one missing from
// the middle was removed by hand, and acknowledged records may be lost
// with it, so reading refuses (*applyjournal.DamageError) until Recover
// is told to accept the loss; the journal is then moved under
// key+".cairn-journal-damaged-<time>/" for inspection.
//
// A later Read that finds journal objects replays them in memory (never
// writing); the next write under the lock folds them into the state
// object first. A journal whose base the state object has moved past
// (Terraform wrote a newer state, or Close's deletion was cut short) is
// stale and is deleted. The journal's records are deleted before its
// header, so a cut-short deletion always leaves the header that marks
// what remains stale.
//
// # Requests and credentials
//
// Credentials and region come from the configuration, then the AWS SDK's
// default chain (environment, shared files, profile; IMDS unless
// skip_metadata_api_check), with assume_role exchanging them through STS
// (endpoints.sts). Open makes one request, a listing of the key, so that
// a missing bucket or refused credentials are reported when the backend
// is configured. Every write carries the configured server-side
// encryption (encrypt: AES256, or aws:kms with kms_key_id, or SSE-C with
// sse_customer_key, which reads carry too) and acl, and a SHA-256
// checksum computed up front unless skip_s3_checksum. Each request is
// retried by the SDK (max_retries) and, while its failure is transient
// (a refused connection, a throttle, a 5xx), again for up to RetryFor,
// after which the error wraps backends.ErrUnavailable. Errors never hold
// a secret key, session token or SSE-C key: the SDK's errors name the
// operation, status, request ID and S3's code, which are wrapped with
// advice. skip_credentials_validation, skip_region_validation and
// skip_requesting_account_id are accepted and have nothing to skip:
// Cairn makes no STS call to validate credentials and keeps no region
// list.
//
// Imports:
//
//	deny internal/configschema internal/providers/... internal/lang/... internal/planning internal/applying internal/command # state here is bytes and a model
package s3
