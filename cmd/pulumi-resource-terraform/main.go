package main

import (
	"context"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

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
	return plugins.Main(ctx, pluginName(os.Args[0]), os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
}

// pluginName is the package the binary serves, from the name it was run
// under: a link or copy named pulumi-resource-terraform-provider (or
// -terraform-module) is Cairn's parameterized plugin of that name, since
// the Pulumi CLI finds plugins by file name; any other name is
// terraform, the built-in provider.
func pluginName(argv0 string) string {
	switch name := strings.TrimPrefix(filepath.Base(argv0), "pulumi-resource-"); name {
	case plugins.ProviderPlugin, plugins.ModulePlugin:
		return name
	}
	return "terraform"
}
