package plugins

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cairn-iac/cairn/internal/cfnsources"
	"github.com/cairn-iac/cairn/internal/cliconfig"
	"github.com/cairn-iac/cairn/internal/modulerun"
	"github.com/cairn-iac/cairn/internal/plugincache"
	"github.com/cairn-iac/cairn/internal/pulumi/server"
)

// Main runs a plugin process for the provider name ("awscc",
// "terraform", or the parameterized "terraform-provider" and
// "terraform-module", which serve the package their parameters name)
// with the arguments the Pulumi engine passes and returns its exit code.
// awscc's sources come from the environment as the CLI reads them:
// CAIRN_AWSCC_SCHEMAS, the fetch cache, CAIRN_AWSCC_TYPES.
// The plugin serves until ctx ends (the caller's interrupt) or the engine
// goes away.
func Main(ctx context.Context, name string, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	var load server.Loader
	info := server.Info{Name: name, Version: Version}
	switch name {
	case "awscc":
		src, types := cfnsources.FromEnv(getenv, cfnsources.InWorkingDir), getenv(cfnsources.TypesEnv)
		load = AWSCC(src, types)
		if store, ok := awsccSchemaStore(plugincache.Dir(getenv), src, types); ok {
			info.Schemas = store
		}
	case "terraform":
		dir := workingDir()
		load = Terraform(dir)
		info.Modules = moduleOptions(dir, getenv)
	case ProviderPlugin:
		info.Parameterize = providerParams{find: providerFinder{getenv: getenv, cwd: workingDir()}}
		load = unparameterized(name, "hashicorp/random")
	case ModulePlugin:
		dir := workingDir()
		info.Parameterize = moduleParams{cwd: dir}
		info.Modules = moduleOptions(dir, getenv)
		load = unparameterized(name, "./net netmod")
	default:
		fmt.Fprintf(stderr, "Error: Unknown provider\n\nCairn serves \"awscc\", \"terraform\", \"%s\" or \"%s\" to Pulumi, not %q.\n", ProviderPlugin, ModulePlugin, name)
		return 1
	}
	return serve(ctx, info, args, load, stdout, stderr)
}

// workingDir is the plugin's working directory, where the Pulumi engine
// starts it: the project's directory.
func workingDir() string {
	dir, err := os.Getwd()
	if err != nil {
		return "."
	}
	return dir
}

// Serve runs the plugin process of provider name over load until the
// engine is done with it (ctx ends, or the engine is gone), and returns
// its exit code. Interrupts are the caller's to turn into ctx's end: the
// binary's main and the command line own the process's signals.
func Serve(ctx context.Context, name string, args []string, load server.Loader, stdout, stderr io.Writer) int {
	return serve(ctx, server.Info{Name: name, Version: Version}, args, load, stdout, stderr)
}

func serve(ctx context.Context, info server.Info, args []string, load server.Loader, stdout, stderr io.Writer) int {
	if err := server.Serve(ctx, args, stdout, info, load); err != nil {
		fmt.Fprintf(stderr, "Error: Pulumi provider server failed\n\n%s.\n", err)
		return 1
	}
	return 0
}

// moduleOptions are where the terraform plugin's module components find
// their modules (relative to the program's directory, dir) and plugin
// providers: the CLI configuration's dev_overrides, read as the CLI reads
// it, and the packages "cairn init" installed beside each module. A CLI
// configuration that does not parse leaves the overrides out; the
// module's own providers are still found.
func moduleOptions(dir string, getenv func(string) string) *modulerun.Options {
	// Fetched modules stay in the project, as init's stay in
	// .terraform/modules: every run plans against the same module.
	opts := &modulerun.Options{BaseDir: dir, Resolver: &modulerun.Fetched{Dir: filepath.Join(dir, ".cairn", "modules")}}
	if cfg, ds := cliconfig.Load(cliconfig.Env{Getenv: getenv, HomeDir: getenv("HOME")}); !ds.HasErrors() && cfg.ProviderInstallation != nil {
		opts.DevOverrides = cfg.ProviderInstallation.DevOverrides
	}
	return opts
}
