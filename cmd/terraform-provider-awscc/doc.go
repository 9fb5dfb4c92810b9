// Command terraform-provider-awscc is Cairn's awscc provider as a
// Terraform plugin: the same as "cairn provider serve awscc", under the
// name Terraform and OpenTofu look for in a plugin directory or mirror.
// It links only the provider and the plugin server (internal/tfplugins),
// not the rest of the CLI, so Terraform's first call is answered sooner.
// A launch over a schema set an earlier launch served answers
// GetProviderSchema from the plugin cache in about 90 ms, against 2.3 s
// for translating every type (see internal/tfplugins).
//
// Boundary: a plugin binary links only what it serves. Terraform and
// OpenTofu start a plugin process per provider configuration, and every
// package linked runs its initialisation at each start, so it links no
// command line.
//
// Imports:
//
//	deny linked internal/command # a plugin binary links only what it serves, not the command line
//	deny linked internal/explorer internal/graphsvg github.com/goccy/go-graphviz/... github.com/chromedp/... # the HTML page, its graph drawing and the test browser are the command line's and the tests'; go-graphviz (its init compiles WebAssembly) stays out
//	uses flags environment terminal # a binary's main is where the process is read
package main
