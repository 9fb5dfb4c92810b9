package plugins

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/builtin"
	"github.com/cairn-iac/cairn/internal/cfnsources"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/awscc"
	"github.com/cairn-iac/cairn/internal/pulumi/schema"
	"github.com/cairn-iac/cairn/internal/pulumi/server"
)

// Version is the version the plugins report, Cairn's.
const Version = "0.1.0"

// AWSCC loads awscc over src's types that types names (a comma-separated
// list; all when empty), when the server first needs it.
func AWSCC(src cfnsources.Sources, types string) server.Loader {
	return func() (*server.Provider, error) {
		p, err := awscc.Load(src, cfnsources.TypeFilter(types))
		if err != nil {
			return nil, err
		}
		return awsccProvider(p), nil
	}
}

// awsccProvider is awscc as the adapter serves it. A region change
// replaces the provider (its resources live in the old region); a
// replacement deletes first when the resource's identifier is a name the
// program sets and keeps, since the new object would take the old one's
// name.
func awsccProvider(p *awscc.Provider) *server.Provider {
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

// Terraform serves the built-in terraform provider (terraform_data);
// dir is where terraform_remote_state reads relative paths from.
func Terraform(dir string) server.Loader {
	return func() (*server.Provider, error) {
		tp := builtin.NewTerraformProvider()
		tp.Dir = dir
		return &server.Provider{
			Addr:    builtin.TerraformProviderAddr,
			Factory: func() (providers.Interface, error) { return tp, nil },
			Package: schema.Input{DisplayName: "Terraform built-ins (Cairn)", Description: "Terraform's built-in resources (terraform_data) and Terraform modules as components (Module), served by Cairn.",
				ModuleComponent: true},
		}, nil
	}
}
