package command

import (
	"context"
	"os"
	"os/signal"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/builtin"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/awscc"
	"github.com/cairn-iac/cairn/internal/pulumi/schema"
	"github.com/cairn-iac/cairn/internal/pulumi/server"
)

// servePulumi serves a provider as a Pulumi resource provider plugin
// (what pulumi-resource-awscc runs): awscc, or the built-in terraform
// provider (terraform_data). args are what the Pulumi engine passes the
// plugin. awscc's schemas load in the background, so the engine's first
// calls are answered at once.
func servePulumi(m *Meta, name string, schemas []string, types string, args []string) int {
	var load server.Loader
	switch name {
	case "awscc":
		load = func() (*server.Provider, error) {
			p, err := m.loadAwscc(schemas, types)
			if err != nil {
				return nil, err
			}
			return awsccPulumi(p), nil
		}
	case "terraform":
		load = func() (*server.Provider, error) {
			tp := builtin.NewTerraformProvider()
			tp.Dir = m.Dir
			return &server.Provider{
				Addr:    builtin.TerraformProviderAddr,
				Factory: func() (providers.Interface, error) { return tp, nil },
				Package: schema.Input{DisplayName: "Terraform built-ins (Cairn)", Description: "Terraform's built-in resources (terraform_data) served by Cairn."},
			}, nil
		}
	default:
		return m.errorf("Unknown provider", "cairn provider serve -protocol pulumi serves \"awscc\" or \"terraform\", not %q.", name)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	info := server.Info{Name: name, Version: Version}
	if err := server.Serve(ctx, args, m.Stdout, info, load); err != nil {
		return m.errorf("Pulumi provider server failed", "%s.", err)
	}
	return 0
}

// awsccPulumi is the awscc provider as the Pulumi adapter serves it. A
// region change replaces the provider (its resources live in the old
// region); a replacement deletes first when the resource's identifier is
// a name the program sets and keeps, since the new object would take the
// old one's name.
func awsccPulumi(p *awscc.Provider) *server.Provider {
	return &server.Provider{
		Addr:    awscc.Addr,
		Factory: p.Factory(),
		Package: schema.Input{
			DisplayName: "AWS Cloud Control (Cairn)",
			Description: "Every AWS CloudFormation resource type through the AWS Cloud Control API, served by Cairn.",
			Repository:  "https://github.com/cairn-iac/cairn",
			License:     "Apache-2.0",
			Publisher:   "Cairn",
		},
		ConfigReplaces: []string{"region"},
		DeleteBeforeReplace: func(typeName string, prior, planned cty.Value) bool {
			attr, ok := p.IdentifierAttribute(typeName)
			if !ok || prior.IsNull() || planned.IsNull() {
				return false
			}
			a, b := prior.GetAttr(attr), planned.GetAttr(attr)
			return a.IsKnown() && b.IsKnown() && a.Equals(b).True()
		},
	}
}
