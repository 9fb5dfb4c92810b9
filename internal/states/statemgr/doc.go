// Package statemgr is the local backend's state manager: the one owner of a
// terraform.tfstate file and the files beside it.
//
//   - terraform.tfstate: the last snapshot, in format version 4
//     (statefile), always replaced atomically and never edited in place.
//   - terraform.tfstate.backup: the snapshot before the last one.
//   - .terraform.tfstate.lock.info: the lock file. An OS lock (flock) on
//     it excludes other Cairn runs and is released by the kernel if the
//     holder dies; its content says who holds it, in Terraform's format.
//     The holder also takes the lock Terraform 1.5.7 takes, an fcntl
//     write lock on terraform.tfstate itself (creating it empty if
//     needed), moved to each new snapshot before it is renamed into
//     place, so that Terraform and Cairn exclude each other (Linux).
//   - terraform.tfstate.journal: present only during an apply (or after
//     one crashed). Each finished resource instance is appended to it and
//     made durable before the engine moves on, so an apply of 10,000
//     instances costs 10,000 small appends sharing fsyncs, not 10,000
//     rewrites of the whole file. Each line is numbered and checksummed.
//     After a crash, Read replays it in memory (Read never writes), and
//     the next write folds it into the state file; a journal damaged
//     before its end is refused (JournalDamageError) until Recover is
//     told to accept the loss.
//
// With WithEncryption (OpenTofu's state encryption, an *encryption.Target),
// every snapshot, backup and journal record is encrypted before it is
// written and decrypted when read, so no plaintext state reaches the disk;
// the journal keeps its line framing, each record sealed on its own line.
//
// All writes go through the small fileSystem interface, so that tests can
// fail any write, sync or rename.
//
// Every change to these files happens under the lock: the caller's, taken
// with Lock, or one taken for the duration of the call (Persist) or the
// apply (BeginApply until Close).
//
// The package knows files, locks and snapshot ordering (lineage and
// serial). It does not know what the state means: it never decodes
// attribute values, plans, or talks to providers.
//
// Imports:
//
//	deny internal/plans internal/configschema # files, locks and snapshots: it never decodes attribute values or plans
package statemgr
