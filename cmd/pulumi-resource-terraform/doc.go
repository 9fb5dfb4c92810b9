// Command pulumi-resource-terraform is Terraform's built-in provider
// (terraform_data) as a Pulumi resource provider plugin: the same as
// "cairn provider serve -protocol pulumi terraform", under the name the
// Pulumi CLI looks for on PATH or in its plugin directory. It links only
// the provider and the Pulumi adapter, not the rest of the CLI.
//
// Imports:
//
//	deny linked internal/command # a plugin binary links only what it serves, not the command line: Pulumi starts one per provider, and every package linked runs its init at each start
//	deny linked internal/explorer internal/graphsvg github.com/goccy/go-graphviz/... github.com/chromedp/... # the HTML page, its graph drawing and the test browser are the command line's and the tests'; go-graphviz (its init compiles WebAssembly) stays out
//	uses flags environment terminal # a binary's main is where the process is read (arguments, environment, interrupts)
package main
