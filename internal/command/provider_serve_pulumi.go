package command

import (
	"github.com/cairn-iac/cairn/internal/pulumi/plugins"
)

// servePulumi serves a provider as a Pulumi resource provider plugin:
// awscc (over the schemas the run's flags and environment name), or the
// built-in terraform provider (terraform_data). args are what the Pulumi
// engine passes the plugin. The pulumi-resource-* binaries run the same
// without the rest of the CLI.
func servePulumi(m *Meta, name string, schemas []string, types string, args []string) int {
	if name == "awscc" && len(schemas) > 0 {
		// -schemas given on the command line: the CLI's own sources.
		src := m.awsccSources(schemas)
		return plugins.Serve("awscc", args, plugins.AWSCC(src, types), m.Stdout, m.Stderr)
	}
	env := func(k string) string {
		if k == "CAIRN_AWSCC_TYPES" {
			return types
		}
		return m.Getenv(k)
	}
	return plugins.Main(name, args, env, m.Stdout, m.Stderr)
}
