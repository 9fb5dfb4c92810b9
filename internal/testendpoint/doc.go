// Package testendpoint runs `cairn cloudcontrol serve` as a process of
// its own for benchmarks, so that what the benchmark's process uses is
// the code under test's alone: it builds cmd/cairn, starts the endpoint
// on a free loopback port, and reads and resets the Cloud Control calls
// the endpoint counted (GET and DELETE /_cairn/calls).
//
// Boundary: test support, imported by tests only. It knows the endpoint
// from the outside: the command line and the calls report, whose type it
// shares with ccendpoint.
//
// Imports:
//
//	tests only
//	deny internal/... # test support knows nothing of Cairn's engine
//	allow internal/ccendpoint # the calls report's type
//	allow internal/testprocess # building cmd/cairn, its peak RSS
package testendpoint
