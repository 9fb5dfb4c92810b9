// Command terraform-provider-awscc is Cairn's awscc provider as a
// Terraform plugin: the same as "cairn provider serve awscc", under the
// name Terraform and OpenTofu look for in a plugin directory or mirror.
package main

import (
	"os"

	"github.com/cairn-iac/cairn/internal/command"
)

func main() {
	os.Exit(command.Run(append([]string{"provider", "serve", "awscc"}, os.Args[1:]...), command.Streams{}))
}
