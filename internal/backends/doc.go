// Package backends is the seam between the commands and where state
// lives. A Backend holds workspaces; each workspace's state is reached
// through a StateMgr, which reads, writes, locks, and records an apply one
// finished object at a time (a Recorder) so that a crash loses nothing the
// engine was told was saved.
//
// Three backends implement it: Local, over statemgr.Filesystem (the
// terraform.tfstate layout Terraform 1.5.7 uses); pg (a subpackage), the
// PostgreSQL layout Terraform 1.5.7's backend "pg" uses; and s3 (a
// subpackage), the bucket layout Terraform's and OpenTofu's backend "s3"
// use. The remote two share their apply journal (applyjournal) and their
// tests' states (backendtest, test support).
//
// Each backend turns state into bytes and back in exactly one place, and
// passes those bytes through a StateTransform when one is set: that is
// where state encryption plugs in.
//
// The remote backends (pg, s3) choose the snapshot a Persist or an
// Import stores by the local backend's rules, from here (PersistOnto,
// ImportOnto), so that every backend accepts and numbers the same writes.
//
// The package does not read flags, environment variables or the
// terminal; the command layer decodes configuration and hands it over.
//
// Imports:
//
//	deny internal/configschema internal/providers/... internal/lang/... internal/planning internal/applying internal/command # state here is bytes and a model: attribute values are never decoded
package backends
