// Package modinstall installs a configuration's module calls as
// Terraform 1.5.7 does for "terraform init" and "terraform get": it parses
// module source addresses into Terraform's three kinds (local paths,
// module registry addresses, and go-getter addresses such as git::,
// github.com/ shorthands, HTTP archives, hg::, s3:: and gcs::), fetches
// each remote package once with hashicorp/go-getter into
// .terraform/modules/<key>, resolves registry modules through the module
// registry protocol, and reads and writes .terraform/modules/modules.json
// byte for byte as Terraform writes it, so Terraform, OpenTofu and Cairn
// can share one initialised directory.
//
// Fetch is the small entry point for front ends other than the command
// line (the Pulumi wing's module components): a source and a version in,
// the module's directory out. Install walks a whole configuration,
// downloading in parallel while reporting, failing and writing exactly
// as a walk one call at a time would (see walk_parallel.go).
//
// The package reads no flags, environment or terminal: credentials files
// and the HTTP client are whatever go-getter and the caller's Fetcher
// give it, and progress goes to a caller's Hooks.
//
// Imports:
//
//	deny internal/states/... internal/plans internal/providers/... internal/lang/... internal/eval internal/planning internal/applying internal/command # installing modules knows configuration files and the network, nothing of evaluation, state or the command line
package modinstall
