// Command cairn plans and applies Terraform-language configuration.
package main

import (
	"os"

	"github.com/cairn-iac/cairn/internal/command"
)

func main() {
	os.Exit(command.Run(os.Args[1:], command.Streams{}))
}
