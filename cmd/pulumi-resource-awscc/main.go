// Command pulumi-resource-awscc is Cairn's awscc provider as a
// Pulumi resource provider plugin: the same as "cairn provider serve
// -protocol pulumi awscc", under the name the Pulumi CLI looks for on PATH
// or in its plugin directory. It links only the provider and the Pulumi
// adapter, not the rest of the CLI, so the engine's first call is
// answered sooner.
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
	return plugins.Main(ctx, "awscc", os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
}
