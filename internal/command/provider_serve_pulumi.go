package command

import (
	"context"
	"os"
	"os/signal"
	"strings"

	"github.com/cairn-iac/cairn/internal/pulumi/plugins"
)

// servePulumi serves a provider as a Pulumi resource provider plugin:
// awscc (over the schemas the run's flags and environment name), or the
// built-in terraform provider (terraform_data). args are what the Pulumi
// engine passes the plugin. The pulumi-resource-* binaries run the same
// without the rest of the CLI.
func servePulumi(m *Meta, name string, schemas []string, types string, args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if name == "awscc" && len(schemas) > 0 {
		// -schemas given on the command line: the CLI's own sources.
		src := m.awsccSources(schemas)
		return plugins.Serve(ctx, "awscc", args, plugins.AWSCC(src, types), m.Stdout, m.Stderr)
	}
	env := func(k string) string {
		if k == "CAIRN_AWSCC_TYPES" {
			return types
		}
		return m.Getenv(k)
	}
	return plugins.Main(ctx, name, args, env, m.Stdout, m.Stderr)
}

// servePulumiPlugin serves an existing Terraform provider plugin to
// Pulumi. args may start with the provider's source address (anything
// that is not a flag); the rest is what the Pulumi engine passes.
func servePulumiPlugin(m *Meta, path string, args []string) int {
	source := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") && strings.Contains(args[0], "/") {
		source, args = args[0], args[1:]
	}
	name, load, err := plugins.TerraformPlugin(path, source)
	if err != nil {
		return m.errorf("Invalid provider plugin", "%s.", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return plugins.Serve(ctx, name, args, load, m.Stdout, m.Stderr)
}
