// Package testpg starts a private PostgreSQL server for tests: initdb and
// pg_ctl on a temporary data directory, a private socket directory and a
// free loopback port, with trust authentication. Started as root, the
// server runs as the postgres user (su), which initdb requires. Tests
// skip when no PostgreSQL installation is found.
//
// One server serves a whole test binary (Shared); each test gets its own
// database.
//
// Boundary: test support, imported by tests only; it knows nothing of
// Cairn.
//
// Imports:
//
//	tests only
//	deny internal/... # test support knows nothing of Cairn
package testpg
