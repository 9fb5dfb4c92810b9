// Package dynamolock is backend "s3"'s dynamodb_table: the lock and the
// state digest Terraform keeps in a DynamoDB table, kept exactly as
// Terraform 1.5.7 and OpenTofu 1.12.6 keep them, so that a run of any of
// the three tools excludes the others and sees what they wrote:
//
//   - the table's HASH key is LockID (S); the lock on the state object
//     at bucket/key is the item LockID "bucket/key" whose Info is the
//     lock's JSON as Terraform marshals its LockInfo (ID, Operation,
//     Info, Who, Version, Created, Path, Path being "bucket/key"), made
//     with PutItem under attribute_not_exists(LockID), so exactly one
//     run creates it;
//   - the item LockID "bucket/key-md5" holds Digest, the hex MD5 of the
//     state object last written, which Terraform compares with the
//     object it reads to notice a stale read.
//
// Lock never waits: the caller retries until its -lock-timeout, as it
// does for the other backends. Unlock deletes the item only while its
// Info is the one the holder wrote (a conditional DeleteItem), so a run
// whose lock was broken and taken by another cannot delete the other's;
// a Table remembers the Info of the last lock it took on each path, so
// releasing its own lock is one request (Terraform's unlock is two: it
// reads the Info back first).
//
// Errors name the table and the item, never credentials.
//
// Imports:
//
//	deny internal/backends internal/backends/pg internal/command # a lock table, used by the s3 backend: it knows no backend and no command
package dynamolock
