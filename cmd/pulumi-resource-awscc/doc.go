// Command pulumi-resource-awscc is Cairn's awscc provider as a
// Pulumi resource provider plugin: the same as "cairn provider serve
// -protocol pulumi awscc", under the name the Pulumi CLI looks for on PATH
// or in its plugin directory. It links only the provider and the Pulumi
// adapter, not the rest of the CLI, so the engine's first call is
// answered sooner. The package schema is kept in the plugin cache
// (internal/plugincache), so only the first launch over a schema set
// builds it.
//
// Imports:
//
//	deny linked internal/command # a plugin binary links only what it serves, not the command line: Pulumi starts one per provider, and every package linked runs its init at each start
//	deny linked internal/explorer internal/graphsvg github.com/goccy/go-graphviz/... github.com/chromedp/... # the HTML page, its graph drawing and the test browser are the command line's and the tests'; go-graphviz (its init compiles WebAssembly) stays out
//	uses flags environment terminal # a binary's main is where the process is read (arguments, environment, interrupts)
package main
