// Package s3 keeps state in an S3 bucket exactly as Terraform's and
// OpenTofu's backend "s3" do, so that the tools share one bucket:
//
//   - the default workspace's state is the object at key; workspace W's
//     is at workspace_key_prefix/W/key ("env:/W/key" by default), and the
//     workspaces are listed from the objects under that prefix;
//   - with use_lockfile, a run locks a workspace by creating the object
//     key+".tflock" with a conditional write (If-None-Match: *), its body
//     the lock's JSON as Terraform writes it;
//   - with dynamodb_table, a run locks by a conditional PutItem of the
//     item LockID "bucket/key" in that table, and records the MD5 digest
//     of every state it writes in the item "bucket/key-md5", which
//     Terraform checks on read (package dynamolock). With both set both
//     locks are taken, as Terraform takes them.
//
// Cairn adds a journal Terraform never reads: during an apply every
// finished object is a small object under key+".cairn-journal/", so that
// a killed run loses nothing the engine was told was saved, while the
// state object is written once at the end and the journal objects are
// then deleted. A later run that finds journal objects replays them as
// the local backend replays its journal file (statemgr).
//
// The package never logs or returns credentials or an SSE-C key.
//
// Imports:
//
//	deny internal/configschema internal/providers/... internal/lang/... internal/planning internal/applying internal/command # state here is bytes and a model
package s3
