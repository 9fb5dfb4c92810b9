package tfplugins

import (
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/cairn-iac/cairn/internal/cfnsources"
	"github.com/cairn-iac/cairn/internal/providers/awscc"
)

// MagicCookie is the environment variable Terraform and OpenTofu set
// when they launch a provider plugin; go-plugin exits the process when it
// is missing, so Serve checks first and explains instead.
const MagicCookie = "TF_PLUGIN_MAGIC_COOKIE"

// Config is what one awscc plugin process serves.
type Config struct {
	// Sources are the CloudFormation schemas (cfnsources.FromEnv).
	Sources cfnsources.Sources
	// Types limits the provider to some types (cfnsources.TypeFilter);
	// all when empty. Fewer types make each launch faster and smaller.
	Types string
	// Debug serves in go-plugin's debug mode: the process prints
	// TF_REATTACH_PROVIDERS for Terraform to attach to instead of being
	// launched by it.
	Debug bool
	// Getenv reads the process environment (the magic cookie).
	Getenv func(string) string
}

// Problem is an error for the person who ran the plugin: a one-line
// summary and a detail saying what to do.
type Problem struct {
	Summary, Detail string
}

func (p *Problem) Error() string { return p.Summary + ": " + p.Detail }

// ServeAWSCC serves awscc over cfg until Terraform is done with the
// process. The errors are *Problem: the process was not launched by
// Terraform, the schemas do not load, or the server failed.
func ServeAWSCC(cfg Config) error {
	if !cfg.Debug && cfg.Getenv(MagicCookie) == "" {
		return &Problem{"Not launched by Terraform",
			"cairn provider serve awscc is a Terraform plugin: Terraform or OpenTofu launches it. Point a dev_overrides or filesystem_mirror entry of the CLI configuration at the terraform-provider-awscc binary (see the README), or run it with -debug and give Terraform the TF_REATTACH_PROVIDERS it prints."}
	}
	p, err := awscc.Load(cfg.Sources, cfnsources.TypeFilter(cfg.Types))
	if err != nil {
		return &Problem{"Failed to load the awscc provider", err.Error() + "."}
	}
	var opts []tf6server.ServeOpt
	if cfg.Debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}
	if err := tf6server.Serve(awscc.Addr.String(), func() tfprotov6.ProviderServer { return p.Server() }, opts...); err != nil {
		return &Problem{"Provider server failed", err.Error() + "."}
	}
	return nil
}
