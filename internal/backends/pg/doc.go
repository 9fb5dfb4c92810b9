// Package pg keeps state in PostgreSQL exactly as Terraform 1.5.7's
// backend "pg" does, so that Terraform and Cairn share one database:
//
//   - the schema (terraform_remote_state by default) holds a table states
//     (id bigint from the sequence public.global_states_id_seq, name text
//     unique, data text), one row per workspace, data being the state file
//     as Terraform writes it, and a unique index states_by_name;
//   - a run locks a workspace with session-level advisory locks: the
//     row's id while the row exists, and -1 while it creates one (a new
//     workspace, or the default workspace's first state). Locks are held
//     on one connection for the run and released by the server if the
//     session ends. A run holding two workspaces of one database (a
//     migration between schemas) borrows, for the second, a lock the
//     first's session holds that covers it (State.LockAlongside), since
//     the two sessions would otherwise refuse each other.
//
// Cairn adds one table Terraform never reads, cairn_journal: during an
// apply every finished object is a row there, committed in groups (the
// rows recorded while the previous commit was in flight go in the next
// transaction), so that a crash loses nothing the engine was told was
// saved, while the states row is written once at the end, in the same
// transaction that deletes the journal rows. A later run that finds
// journal rows replays them exactly as the local backend replays its
// journal file (statemgr); rows damaged by hand are refused until
// Recover with acceptLoss renames them aside. The record encoding, the
// replay rules, the group-commit writer and the apply's live state are
// package applyjournal's, shared with the s3 backend; this package keeps
// only the rows.
//
// A row that cannot be read (data empty, NULL, not a state, not
// decrypting) is an error, never a new workspace, as in Terraform; only
// a forced Import replaces it.
//
// A lost connection is retried with backoff; the lock is taken again on
// the new session, and the run continues only if the state row is still
// the one it read. The package never logs or returns the connection
// string: it may hold a password.
package pg
