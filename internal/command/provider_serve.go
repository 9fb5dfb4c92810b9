package command

import (
	"errors"

	"github.com/cairn-iac/cairn/internal/tfplugins"
)

// runProviderServe implements "cairn provider serve awscc": Cairn's awscc
// provider as a standalone plugin speaking Terraform plugin protocol 6,
// for Terraform and OpenTofu to launch (through dev_overrides or a
// filesystem mirror; the terraform-provider-awscc binary built from this
// repository runs the same, internal/tfplugins). It serves the built-in
// CloudFormation schemas, laid over by the fetch cache,
// CAIRN_AWSCC_SCHEMAS and -schemas; -types (or CAIRN_AWSCC_TYPES) limits it to some types, which
// makes every launch faster and smaller.
func runProviderServe(m *Meta, args []string) int {
	fs := newFlagSet("provider serve", m.Stderr)
	var schemas stringList
	var types string
	var debug bool
	var protocol, pluginPath string
	fs.Var(&schemas, "schemas", "Directory of CloudFormation schemas laid over the built-in ones (repeatable).")
	fs.StringVar(&types, "types", m.Getenv("CAIRN_AWSCC_TYPES"), "Comma-separated types to serve (AWS::Logs::LogGroup or awscc_logs_log_group); all by default.")
	fs.StringVar(&protocol, "protocol", "terraform", "The protocol to serve: terraform (plugin protocol 6, for Terraform and OpenTofu) or pulumi (Pulumi's resource provider protocol).")
	fs.StringVar(&pluginPath, "plugin", "", "With -protocol pulumi: serve this Terraform provider plugin binary (protocol 5 or 6) instead; the argument, if any, is its source address.")
	fs.BoolVar(&debug, "debug", false, "Run in debug mode: print TF_REATTACH_PROVIDERS for Terraform to attach to, instead of being launched by it.")
	if !m.parseFlags(fs, args) {
		return 1
	}
	if protocol == "pulumi" && pluginPath != "" {
		return servePulumiPlugin(m, m.absPath(pluginPath), fs.Args())
	}
	if protocol == "pulumi" && fs.NArg() >= 1 {
		return servePulumi(m, fs.Arg(0), schemas, types, fs.Args()[1:])
	}
	if protocol != "terraform" && protocol != "pulumi" {
		return m.errorf("Unknown protocol", "cairn provider serve -protocol takes terraform or pulumi, not %q.", protocol)
	}
	if fs.NArg() != 1 || fs.Arg(0) != "awscc" {
		return m.errorf("Unknown provider", "cairn provider serve takes one argument, the provider to serve; Cairn serves \"awscc\".")
	}
	err := tfplugins.ServeAWSCC(tfplugins.Config{Sources: m.awsccSources(schemas), Types: types, Debug: debug, Getenv: m.Getenv})
	var p *tfplugins.Problem
	switch {
	case errors.As(err, &p):
		return m.errorf(p.Summary, "%s", p.Detail)
	case err != nil:
		return m.errorf("Provider server failed", "%s.", err)
	}
	return 0
}
