// Package localproviders finds the plugin providers a configuration
// needs where "cairn init" left them, and registers a factory for each:
// a dev_overrides directory from the CLI configuration (with
// Terraform's warning), else the package installed in the data
// directory's providers directory for the version the lock file
// records, whose hash must still be one the lock file accepts. The
// command line and modulerun (a module run inside the Pulumi plugin)
// share it, so both find providers the same way.
//
// Boundary: it reads the lock file and the installed packages; where the
// CLI configuration came from, the process environment and the network
// are its callers' (Settings is handed in).
//
// Imports:
//
//	deny internal/command/... internal/pulumi/... internal/planning internal/applying # callers: the command line and modulerun
package localproviders
