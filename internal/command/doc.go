// Package command implements the cairn command line: one file per command,
// the flags each takes, the terminal output and the exit codes. Commands
// wire the engine's packages together (configs, planning, applying,
// statemgr, render); they hold no planning logic of their own.
//
// Exit codes follow Terraform's: 0 success, 1 error, and for
// plan -detailed-exitcode 2 when the plan has changes.
package command
