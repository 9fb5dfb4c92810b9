// Package testprocess builds Cairn's commands for tests that run them as
// processes of their own, and reads what such a process cost: its peak
// resident set. Benchmarks that launch a plugin or an endpoint measure
// that process apart from the test binary's own.
//
// Boundary: test support, imported by tests only; it knows nothing of
// Cairn beyond the import paths its callers hand it.
//
// Imports:
//
//	tests only
//	deny internal/... # test support knows nothing of Cairn
package testprocess
