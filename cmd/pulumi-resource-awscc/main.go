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
