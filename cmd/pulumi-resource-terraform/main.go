// Command pulumi-resource-terraform is Terraform's built-in provider
// (terraform_data) as a Pulumi resource provider plugin: the same as
// "cairn provider serve -protocol pulumi terraform", under the name the
// Pulumi CLI looks for on PATH or in its plugin directory. It links only
// the provider and the Pulumi adapter, not the rest of the CLI.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/cairn-iac/cairn/internal/pulumi/plugins"
)

func main() {
	os.Exit(run())
}

// run serves until the Pulumi engine is done with the plugin or the
// process is interrupted.
func run() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return plugins.Main(ctx, "terraform", os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
}
