// Command pulumi-resource-terraform is Terraform's built-in provider
// (terraform_data) as a Pulumi resource provider plugin: the same as
// "cairn provider serve -protocol pulumi terraform", under the name the
// Pulumi CLI looks for on PATH or in its plugin directory.
package main

import (
	"os"

	"github.com/cairn-iac/cairn/internal/command"
)

func main() {
	os.Exit(command.Run(append([]string{"provider", "serve", "-protocol", "pulumi", "terraform"}, os.Args[1:]...), command.Streams{}))
}
