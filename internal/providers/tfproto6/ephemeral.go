package tfproto6

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
)

var _ providers.EphemeralResourceProvider = (*Provider)(nil)

// convertEphemeralSchemas converts a GetProviderSchema answer's ephemeral
// resource schemas (protocol 6.7); one that cannot be converted is left
// out with an error.
func convertEphemeralSchemas(in *tfprotov6.GetProviderSchemaResponse) providers.GetEphemeralResourceSchemasResponse {
	out := providers.GetEphemeralResourceSchemasResponse{EphemeralResourceTypes: make(map[string]providers.Schema, len(in.EphemeralResourceSchemas))}
	for name, s := range in.EphemeralResourceSchemas {
		cs, err := convertSchema(s, true)
		if err != nil {
			out.Diagnostics = out.Diagnostics.Append(fmt.Errorf("the provider's schema for ephemeral resource %s cannot be used: %w", name, err))
			continue
		}
		out.EphemeralResourceTypes[name] = cs
	}
	return out
}

// GetEphemeralResourceSchemas implements
// providers.EphemeralResourceProvider, from the one GetProviderSchema
// answer the adapter keeps.
func (p *Provider) GetEphemeralResourceSchemas(ctx context.Context) providers.GetEphemeralResourceSchemasResponse {
	if ds := p.schemaErrors(ctx); ds.HasErrors() {
		return providers.GetEphemeralResourceSchemasResponse{Diagnostics: ds}
	}
	return p.cache.ephemeral
}

// ephemeralType returns the implied type of an ephemeral resource, or an
// error diagnostic when the provider has none of that type.
func (p *Provider) ephemeralType(ctx context.Context, name string) (cty.Type, diags.Diagnostics) {
	if ds := p.schemaErrors(ctx); ds.HasErrors() {
		return cty.NilType, ds
	}
	s, ok := p.cache.ephemeral.EphemeralResourceTypes[name]
	if !ok {
		return cty.NilType, diags.Diagnostics{diags.Errorf("Unsupported ephemeral resource", "The provider has no ephemeral resource type %q.", name)}
	}
	return s.Block.ImpliedType(), nil
}

// ValidateEphemeralResourceConfig implements
// providers.EphemeralResourceProvider.
func (p *Provider) ValidateEphemeralResourceConfig(ctx context.Context, req providers.ValidateEphemeralResourceConfigRequest) (resp providers.ValidateEphemeralResourceConfigResponse) {
	const method = "ValidateEphemeralResourceConfig"
	ty, ds := p.ephemeralType(ctx, req.TypeName)
	if resp.Diagnostics = ds; ds.HasErrors() {
		return resp
	}
	var c codec
	preq := &tfprotov6.ValidateEphemeralResourceConfigRequest{TypeName: req.TypeName, Config: c.encode("configuration", req.Config, ty)}
	presp, err := invoke(&c, func() (*tfprotov6.ValidateEphemeralResourceConfigResponse, error) {
		return p.server.ValidateEphemeralResourceConfig(ctx, preq)
	})
	if err != nil {
		resp.Diagnostics = callFailed(method, err)
		return resp
	}
	resp.Diagnostics = convertDiagnostics(presp.Diagnostics)
	return resp
}

// OpenEphemeralResource implements providers.EphemeralResourceProvider.
// Cairn allows no deferral: a provider that asks for one is told so.
func (p *Provider) OpenEphemeralResource(ctx context.Context, req providers.OpenEphemeralResourceRequest) (resp providers.OpenEphemeralResourceResponse) {
	const method = "OpenEphemeralResource"
	ty, ds := p.ephemeralType(ctx, req.TypeName)
	if resp.Diagnostics = ds; ds.HasErrors() {
		return resp
	}
	var c codec
	preq := &tfprotov6.OpenEphemeralResourceRequest{
		TypeName: req.TypeName, Config: c.encode("configuration", req.Config, ty),
		ClientCapabilities: &tfprotov6.OpenEphemeralResourceClientCapabilities{},
	}
	presp, err := invoke(&c, func() (*tfprotov6.OpenEphemeralResourceResponse, error) {
		return p.server.OpenEphemeralResource(ctx, preq)
	})
	if err != nil {
		resp.Diagnostics = callFailed(method, err)
		return resp
	}
	resp.Diagnostics = convertDiagnostics(presp.Diagnostics).Append(deferred(method, presp.Deferred))
	resp.Result = c.decode("result", presp.Result, ty)
	resp.RenewAt, resp.Private = presp.RenewAt, presp.Private
	if c.Err != nil {
		resp.Diagnostics = resp.Diagnostics.Append(callFailed(method, c.Err))
	}
	return resp
}

// RenewEphemeralResource implements providers.EphemeralResourceProvider.
func (p *Provider) RenewEphemeralResource(ctx context.Context, req providers.RenewEphemeralResourceRequest) (resp providers.RenewEphemeralResourceResponse) {
	const method = "RenewEphemeralResource"
	var c codec
	preq := &tfprotov6.RenewEphemeralResourceRequest{TypeName: req.TypeName, Private: req.Private}
	presp, err := invoke(&c, func() (*tfprotov6.RenewEphemeralResourceResponse, error) {
		return p.server.RenewEphemeralResource(ctx, preq)
	})
	if err != nil {
		resp.Diagnostics = callFailed(method, err)
		return resp
	}
	resp.Diagnostics = convertDiagnostics(presp.Diagnostics)
	resp.RenewAt, resp.Private = presp.RenewAt, presp.Private
	return resp
}

// CloseEphemeralResource implements providers.EphemeralResourceProvider.
func (p *Provider) CloseEphemeralResource(ctx context.Context, req providers.CloseEphemeralResourceRequest) (resp providers.CloseEphemeralResourceResponse) {
	const method = "CloseEphemeralResource"
	var c codec
	preq := &tfprotov6.CloseEphemeralResourceRequest{TypeName: req.TypeName, Private: req.Private}
	presp, err := invoke(&c, func() (*tfprotov6.CloseEphemeralResourceResponse, error) {
		return p.server.CloseEphemeralResource(ctx, preq)
	})
	if err != nil {
		resp.Diagnostics = callFailed(method, err)
		return resp
	}
	resp.Diagnostics = convertDiagnostics(presp.Diagnostics)
	return resp
}
