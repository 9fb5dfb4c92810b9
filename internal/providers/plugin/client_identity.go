package plugin

import (
	"context"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/providers"
)

// The optional capabilities of protocol 6.9 and 6.10 (resource identity
// and list resources), offered by every Client: a plugin that predates
// them has no identities and no list resources, which tfproto6 reports
// as such.
var (
	_ providers.IdentityProvider     = (*Client)(nil)
	_ providers.ListResourceProvider = (*Client)(nil)
)

// GetResourceIdentitySchemas implements providers.IdentityProvider.
func (c *Client) GetResourceIdentitySchemas(ctx context.Context) providers.GetResourceIdentitySchemasResponse {
	ctx, rec, end := c.begin(ctx)
	defer end()
	ip, ok := c.inner.(providers.IdentityProvider)
	if !ok {
		return providers.GetResourceIdentitySchemasResponse{}
	}
	resp := ip.GetResourceIdentitySchemas(ctx)
	resp.Diagnostics = c.explain("GetResourceIdentitySchemas", rec.failure(), resp.Diagnostics)
	return resp
}

// UpgradeResourceIdentity implements providers.IdentityProvider.
func (c *Client) UpgradeResourceIdentity(ctx context.Context, req providers.UpgradeResourceIdentityRequest) providers.UpgradeResourceIdentityResponse {
	ctx, rec, end := c.begin(ctx)
	defer end()
	ip, ok := c.inner.(providers.IdentityProvider)
	if !ok {
		return providers.UpgradeResourceIdentityResponse{}
	}
	resp := ip.UpgradeResourceIdentity(ctx, req)
	resp.Diagnostics = c.explain("UpgradeResourceIdentity", rec.failure(), resp.Diagnostics)
	return resp
}

// GetListResourceSchemas implements providers.ListResourceProvider; the
// schemas come with the provider schema fetched at Launch.
func (c *Client) GetListResourceSchemas(ctx context.Context) providers.GetListResourceSchemasResponse {
	ctx, rec, end := c.begin(ctx)
	defer end()
	lp, ok := c.inner.(providers.ListResourceProvider)
	if !ok {
		return providers.GetListResourceSchemasResponse{}
	}
	resp := lp.GetListResourceSchemas(ctx)
	resp.Diagnostics = c.explain("GetProviderSchema", rec.failure(), resp.Diagnostics)
	return resp
}

// ValidateListResourceConfig implements providers.ListResourceProvider.
func (c *Client) ValidateListResourceConfig(ctx context.Context, req providers.ValidateListResourceConfigRequest) providers.ValidateListResourceConfigResponse {
	ctx, rec, end := c.begin(ctx)
	defer end()
	lp, ok := c.inner.(providers.ListResourceProvider)
	if !ok {
		return providers.ValidateListResourceConfigResponse{}
	}
	resp := lp.ValidateListResourceConfig(ctx, req)
	resp.Diagnostics = c.explain("ValidateListResourceConfig", rec.failure(), resp.Diagnostics)
	return resp
}

// ListResource implements providers.ListResourceProvider. The call lives
// as long as the caller ranges over the results (the stream opens at the
// first), so its interrupt handling (see begin) ends with the ranging; a
// listing never ranged over holds only that until ctx ends. When the
// stream fails in transport, its last result names the plugin. No more
// than req.Limit objects are yielded, whatever the plugin sends.
func (c *Client) ListResource(ctx context.Context, req providers.ListResourceRequest) providers.ListResourceResponse {
	lp, ok := c.inner.(providers.ListResourceProvider)
	if !ok {
		return providers.ListResourceResponse{}
	}
	callCtx, rec, end := c.begin(ctx)
	resp := lp.ListResource(callCtx, req)
	resp.Diagnostics = c.explain("ListResource", rec.failure(), resp.Diagnostics)
	if resp.Results == nil {
		end()
		return resp
	}
	inner := resp.Results
	resp.Results = func(yield func(providers.ListResult) bool) {
		defer end()
		var n int64
		for r := range inner {
			if err := rec.failure(); err != nil && r.Diagnostics.HasErrors() {
				r.Diagnostics = c.explain("ListResource ("+req.TypeName+")", err, nil)
			}
			if !yield(r) {
				return
			}
			// Not every plugin stops at the limit it is sent (HashiCorp's
			// awscc v1.97 does not): the client does, ending the stream.
			if r.Identity != cty.NilVal {
				if n++; req.Limit > 0 && n >= req.Limit {
					return
				}
			}
		}
	}
	return resp
}
