// Command pulumi-resource-terraform is Terraform's built-in provider
// (terraform_data) as a Pulumi resource provider plugin: the same as
// "cairn provider serve -protocol pulumi terraform", under the name the
// Pulumi CLI looks for on PATH or in its plugin directory. It links only
// the provider and the Pulumi adapter, not the rest of the CLI.
//
// Run under the name pulumi-resource-terraform-provider (a link or a
// copy), it is Cairn's parameterized provider plugin instead, as
// "cairn provider serve -protocol pulumi terraform-provider" is: "pulumi
// package add terraform-provider hashicorp/random" makes package random
// of the installed hashicorp/random plugin. Under the name
// pulumi-resource-terraform-module it is the module plugin ("pulumi
// package add terraform-module ./net netmod"). One binary serves all
// three, so nothing more is built or installed than a link.
//
// Imports:
//
//	deny linked internal/command # a plugin binary links only what it serves, not the command line: Pulumi starts one per provider, and every package linked runs its init at each start
//	deny linked internal/explorer internal/graphsvg github.com/goccy/go-graphviz/... github.com/chromedp/... # the HTML page, its graph drawing and the test browser are the command line's and the tests'; go-graphviz (its init compiles WebAssembly) stays out
//	uses flags environment terminal # a binary's main is where the process is read (arguments, environment, interrupts)
package main
