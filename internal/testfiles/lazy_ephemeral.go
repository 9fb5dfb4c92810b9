package testfiles

import (
	"context"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
)

// A lazily started provider offers the real one's ephemeral resource
// types: validating one starts the real provider, opening, renewing and
// closing one also configures it, as a managed resource's plan does.
var _ providers.EphemeralResourceProvider = (*lazyProvider)(nil)

// ephemeral returns the real provider as an ephemeral resource provider,
// started (and configured, when configure is set).
func (p *lazyProvider) ephemeral(ctx context.Context, configure bool, typeName string) (providers.EphemeralResourceProvider, diags.Diagnostics) {
	real, ds := p.started(ctx, configure)
	if ds.HasErrors() {
		return nil, ds
	}
	ep, ok := real.(providers.EphemeralResourceProvider)
	if !ok {
		return nil, diags.Diagnostics{diags.Errorf("Unsupported ephemeral resource", "The provider has no ephemeral resource type %q.", typeName)}
	}
	return ep, nil
}

// GetEphemeralResourceSchemas implements providers.EphemeralResourceProvider
// from the schema the real provider gave when the module was first loaded.
func (p *lazyProvider) GetEphemeralResourceSchemas(context.Context) providers.GetEphemeralResourceSchemasResponse {
	return providers.GetEphemeralResourceSchemasResponse{EphemeralResourceTypes: p.schema.EphemeralResources}
}

// ValidateEphemeralResourceConfig implements providers.EphemeralResourceProvider.
func (p *lazyProvider) ValidateEphemeralResourceConfig(ctx context.Context, req providers.ValidateEphemeralResourceConfigRequest) providers.ValidateEphemeralResourceConfigResponse {
	ep, ds := p.ephemeral(ctx, false, req.TypeName)
	if ds.HasErrors() {
		return providers.ValidateEphemeralResourceConfigResponse{Diagnostics: ds}
	}
	return ep.ValidateEphemeralResourceConfig(ctx, req)
}

// OpenEphemeralResource implements providers.EphemeralResourceProvider.
func (p *lazyProvider) OpenEphemeralResource(ctx context.Context, req providers.OpenEphemeralResourceRequest) providers.OpenEphemeralResourceResponse {
	ep, ds := p.ephemeral(ctx, true, req.TypeName)
	if ds.HasErrors() {
		return providers.OpenEphemeralResourceResponse{Diagnostics: ds}
	}
	return ep.OpenEphemeralResource(ctx, req)
}

// RenewEphemeralResource implements providers.EphemeralResourceProvider.
func (p *lazyProvider) RenewEphemeralResource(ctx context.Context, req providers.RenewEphemeralResourceRequest) providers.RenewEphemeralResourceResponse {
	ep, ds := p.ephemeral(ctx, true, req.TypeName)
	if ds.HasErrors() {
		return providers.RenewEphemeralResourceResponse{Diagnostics: ds}
	}
	return ep.RenewEphemeralResource(ctx, req)
}

// CloseEphemeralResource implements providers.EphemeralResourceProvider.
func (p *lazyProvider) CloseEphemeralResource(ctx context.Context, req providers.CloseEphemeralResourceRequest) providers.CloseEphemeralResourceResponse {
	ep, ds := p.ephemeral(ctx, true, req.TypeName)
	if ds.HasErrors() {
		return providers.CloseEphemeralResourceResponse{Diagnostics: ds}
	}
	return ep.CloseEphemeralResource(ctx, req)
}
