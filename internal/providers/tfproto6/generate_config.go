package tfproto6

import (
	"context"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/cairn-iac/cairn/internal/providers"
)

var _ providers.ConfigGenerator = (*Provider)(nil)

// GenerateResourceConfig implements providers.ConfigGenerator: the state
// goes to the server encoded with the resource type's schema, and the
// configuration it answers is decoded with the same schema.
func (p *Provider) GenerateResourceConfig(ctx context.Context, req providers.GenerateResourceConfigRequest) (resp providers.GenerateResourceConfigResponse) {
	const method = "GenerateResourceConfig"
	ty, ds := p.resourceType(ctx, req.TypeName)
	if resp.Diagnostics = ds; ds.HasErrors() {
		return resp
	}
	var c codec
	preq := &tfprotov6.GenerateResourceConfigRequest{TypeName: req.TypeName, State: c.encode("state", req.State, ty)}
	presp, err := invoke(&c, func() (*tfprotov6.GenerateResourceConfigResponse, error) {
		return p.server.GenerateResourceConfig(ctx, preq)
	})
	if err != nil {
		resp.Diagnostics = callFailed(method, err)
		return resp
	}
	if resp.Diagnostics = convertDiagnostics(presp.Diagnostics); resp.Diagnostics.HasErrors() {
		return resp
	}
	resp.Config = c.decode("config", presp.Config, ty)
	if c.Err != nil {
		resp.Diagnostics = resp.Diagnostics.Append(callFailed(method, c.Err))
	}
	return resp
}
