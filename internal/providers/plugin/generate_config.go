package plugin

import (
	"context"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
)

var _ providers.ConfigGenerator = (*Client)(nil)

// GenerateResourceConfig implements providers.ConfigGenerator: the plugin
// says which configuration manages one of its objects (protocol 6.10). A
// plugin that crashed or closed is named in the diagnostics.
func (c *Client) GenerateResourceConfig(ctx context.Context, req providers.GenerateResourceConfigRequest) providers.GenerateResourceConfigResponse {
	ctx, rec, end := c.begin(ctx)
	defer end()
	g, ok := c.inner.(providers.ConfigGenerator)
	if !ok {
		return providers.GenerateResourceConfigResponse{Diagnostics: diags.Diagnostics{diags.Errorf("Plugin cannot generate configuration", "%s", errUnsupported)}}
	}
	resp := g.GenerateResourceConfig(ctx, req)
	resp.Diagnostics = c.explain("GenerateResourceConfig", rec.failure(), resp.Diagnostics)
	return resp
}
