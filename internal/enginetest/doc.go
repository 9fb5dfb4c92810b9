// Package enginetest runs plan and apply in-process against real
// configuration text, the built-in terraform provider and small test
// providers, for the engine's end-to-end tests and benchmarks. It holds an
// in-memory state writer with the same contract as the local backend's.
//
// Boundary: test support, imported by tests only.
//
// Imports:
//
//	tests only
package enginetest
