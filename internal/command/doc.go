// Package command implements the cairn command line: one file per command,
// the flags each takes, the terminal output and the exit codes. Commands
// wire the engine's packages together (configs, planning, applying,
// statemgr, render); they hold no planning logic of their own.
//
// Exit codes follow Terraform's: 0 success, 1 error, and for
// plan -detailed-exitcode 2 when the plan has changes.
//
// Boundary: command is the top of the tree. Only cmd/cairn imports it
// (the plugin binaries do not: see their doc.go), and it is the one
// package under internal/ that reads flags, the environment and the
// terminal; the packages below are handed what it read.
//
// Imports:
//
//	uses flags environment terminal # the command line is where the process is read
package command
