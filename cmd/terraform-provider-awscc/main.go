// Command terraform-provider-awscc is Cairn's awscc provider as a
// Terraform plugin: the same as "cairn provider serve awscc", under the
// name Terraform and OpenTofu look for in a plugin directory or mirror.
// It links only the provider and the plugin server (internal/tfplugins),
// not the rest of the CLI, so Terraform's first call is answered sooner.
package main

import (
	"os"

	"github.com/cairn-iac/cairn/internal/tfplugins"
)

func main() {
	os.Exit(tfplugins.Main(os.Args[1:], os.Getenv, os.Stderr))
}
