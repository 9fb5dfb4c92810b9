package plugin

import (
	"context"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
)

var _ providers.EphemeralResourceProvider = (*Client)(nil)

// errNoEphemeral answers for an inner provider without ephemeral
// resources, which tfproto6's adapter always has: a guard, not a path.
var errNoEphemeral = diags.Diagnostics{diags.Errorf("Unsupported ephemeral resource", "The provider has no ephemeral resources.")}

func (c *Client) ephemeral() (providers.EphemeralResourceProvider, bool) {
	ep, ok := c.inner.(providers.EphemeralResourceProvider)
	return ep, ok
}

// GetEphemeralResourceSchemas implements
// providers.EphemeralResourceProvider.
func (c *Client) GetEphemeralResourceSchemas(ctx context.Context) providers.GetEphemeralResourceSchemasResponse {
	ctx, rec, end := c.begin(ctx)
	defer end()
	ep, ok := c.ephemeral()
	if !ok {
		return providers.GetEphemeralResourceSchemasResponse{}
	}
	resp := ep.GetEphemeralResourceSchemas(ctx)
	resp.Diagnostics = c.explain("GetProviderSchema", rec.failure(), resp.Diagnostics)
	return resp
}

// ValidateEphemeralResourceConfig implements
// providers.EphemeralResourceProvider.
func (c *Client) ValidateEphemeralResourceConfig(ctx context.Context, req providers.ValidateEphemeralResourceConfigRequest) providers.ValidateEphemeralResourceConfigResponse {
	ctx, rec, end := c.begin(ctx)
	defer end()
	ep, ok := c.ephemeral()
	if !ok {
		return providers.ValidateEphemeralResourceConfigResponse{Diagnostics: errNoEphemeral}
	}
	resp := ep.ValidateEphemeralResourceConfig(ctx, req)
	resp.Diagnostics = c.explain("ValidateEphemeralResourceConfig", rec.failure(), resp.Diagnostics)
	return resp
}

// OpenEphemeralResource implements providers.EphemeralResourceProvider.
func (c *Client) OpenEphemeralResource(ctx context.Context, req providers.OpenEphemeralResourceRequest) providers.OpenEphemeralResourceResponse {
	ctx, rec, end := c.begin(ctx)
	defer end()
	ep, ok := c.ephemeral()
	if !ok {
		return providers.OpenEphemeralResourceResponse{Diagnostics: errNoEphemeral}
	}
	resp := ep.OpenEphemeralResource(ctx, req)
	resp.Diagnostics = c.explain("OpenEphemeralResource", rec.failure(), resp.Diagnostics)
	return resp
}

// RenewEphemeralResource implements providers.EphemeralResourceProvider.
func (c *Client) RenewEphemeralResource(ctx context.Context, req providers.RenewEphemeralResourceRequest) providers.RenewEphemeralResourceResponse {
	ctx, rec, end := c.begin(ctx)
	defer end()
	ep, ok := c.ephemeral()
	if !ok {
		return providers.RenewEphemeralResourceResponse{Diagnostics: errNoEphemeral}
	}
	resp := ep.RenewEphemeralResource(ctx, req)
	resp.Diagnostics = c.explain("RenewEphemeralResource", rec.failure(), resp.Diagnostics)
	return resp
}

// CloseEphemeralResource implements providers.EphemeralResourceProvider.
func (c *Client) CloseEphemeralResource(ctx context.Context, req providers.CloseEphemeralResourceRequest) providers.CloseEphemeralResourceResponse {
	ctx, rec, end := c.begin(ctx)
	defer end()
	ep, ok := c.ephemeral()
	if !ok {
		return providers.CloseEphemeralResourceResponse{Diagnostics: errNoEphemeral}
	}
	resp := ep.CloseEphemeralResource(ctx, req)
	resp.Diagnostics = c.explain("CloseEphemeralResource", rec.failure(), resp.Diagnostics)
	return resp
}
