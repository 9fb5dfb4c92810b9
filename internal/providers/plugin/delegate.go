package plugin

import (
	"context"

	"github.com/cairn-iac/cairn/internal/providers"
)

// The operations below run tfproto6's adapter under a call record, so a
// transport failure is reported by explain (see Client).

// ValidateProviderConfig implements providers.Interface (protocol 5's
// PrepareProviderConfig, whose prepared configuration is returned).
func (c *Client) ValidateProviderConfig(ctx context.Context, req providers.ValidateProviderConfigRequest) providers.ValidateProviderConfigResponse {
	ctx, rec, end := c.begin(ctx)
	defer end()
	resp := c.inner.ValidateProviderConfig(ctx, req)
	resp.Diagnostics = c.explain("ValidateProviderConfig", rec.failure(), resp.Diagnostics)
	return resp
}

// ConfigureProvider implements providers.Interface (protocol 5's
// Configure). An empty TerraformVersion is sent as Options.TerraformVersion.
func (c *Client) ConfigureProvider(ctx context.Context, req providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	ctx, rec, end := c.begin(ctx)
	defer end()
	resp := c.inner.ConfigureProvider(ctx, req)
	resp.Diagnostics = c.explain("ConfigureProvider", rec.failure(), resp.Diagnostics)
	return resp
}

// ValidateResourceConfig implements providers.Interface (protocol 5's
// ValidateResourceTypeConfig).
func (c *Client) ValidateResourceConfig(ctx context.Context, req providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
	ctx, rec, end := c.begin(ctx)
	defer end()
	resp := c.inner.ValidateResourceConfig(ctx, req)
	resp.Diagnostics = c.explain("ValidateResourceConfig", rec.failure(), resp.Diagnostics)
	return resp
}

// ValidateDataResourceConfig implements providers.Interface (protocol 5's
// ValidateDataSourceConfig).
func (c *Client) ValidateDataResourceConfig(ctx context.Context, req providers.ValidateDataResourceConfigRequest) providers.ValidateDataResourceConfigResponse {
	ctx, rec, end := c.begin(ctx)
	defer end()
	resp := c.inner.ValidateDataResourceConfig(ctx, req)
	resp.Diagnostics = c.explain("ValidateDataResourceConfig", rec.failure(), resp.Diagnostics)
	return resp
}

// UpgradeResourceState implements providers.Interface.
func (c *Client) UpgradeResourceState(ctx context.Context, req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	ctx, rec, end := c.begin(ctx)
	defer end()
	resp := c.inner.UpgradeResourceState(ctx, req)
	resp.Diagnostics = c.explain("UpgradeResourceState", rec.failure(), resp.Diagnostics)
	return resp
}

// ReadResource implements providers.Interface.
func (c *Client) ReadResource(ctx context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
	ctx, rec, end := c.begin(ctx)
	defer end()
	resp := c.inner.ReadResource(ctx, req)
	resp.Diagnostics = c.explain("ReadResource", rec.failure(), resp.Diagnostics)
	return resp
}

// PlanResourceChange implements providers.Interface.
func (c *Client) PlanResourceChange(ctx context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	ctx, rec, end := c.begin(ctx)
	defer end()
	resp := c.inner.PlanResourceChange(ctx, req)
	resp.Diagnostics = c.explain("PlanResourceChange", rec.failure(), resp.Diagnostics)
	return resp
}

// ApplyResourceChange implements providers.Interface.
func (c *Client) ApplyResourceChange(ctx context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	ctx, rec, end := c.begin(ctx)
	defer end()
	resp := c.inner.ApplyResourceChange(ctx, req)
	resp.Diagnostics = c.explain("ApplyResourceChange", rec.failure(), resp.Diagnostics)
	return resp
}

// ImportResourceState implements providers.Interface.
func (c *Client) ImportResourceState(ctx context.Context, req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	ctx, rec, end := c.begin(ctx)
	defer end()
	resp := c.inner.ImportResourceState(ctx, req)
	resp.Diagnostics = c.explain("ImportResourceState", rec.failure(), resp.Diagnostics)
	return resp
}

// ReadDataSource implements providers.Interface.
func (c *Client) ReadDataSource(ctx context.Context, req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	ctx, rec, end := c.begin(ctx)
	defer end()
	resp := c.inner.ReadDataSource(ctx, req)
	resp.Diagnostics = c.explain("ReadDataSource", rec.failure(), resp.Diagnostics)
	return resp
}
