package testfiles

import (
	"context"

	"github.com/cairn-iac/cairn/internal/providers"
)

// A mocked provider opens the real provider's ephemeral resource types
// too, as `tofu test` does: what the configuration sets is kept and each
// computed attribute gets a generated value (ephemeral results are never
// planned, so never unknown). Nothing is renewed or closed outside.
var _ providers.EphemeralResourceProvider = (*mockProvider)(nil)

// GetEphemeralResourceSchemas implements providers.EphemeralResourceProvider.
func (p *mockProvider) GetEphemeralResourceSchemas(context.Context) providers.GetEphemeralResourceSchemasResponse {
	return providers.GetEphemeralResourceSchemasResponse{EphemeralResourceTypes: p.schema.EphemeralResources}
}

// ValidateEphemeralResourceConfig implements providers.EphemeralResourceProvider.
func (p *mockProvider) ValidateEphemeralResourceConfig(context.Context, providers.ValidateEphemeralResourceConfigRequest) providers.ValidateEphemeralResourceConfigResponse {
	return providers.ValidateEphemeralResourceConfigResponse{}
}

// OpenEphemeralResource implements providers.EphemeralResourceProvider.
func (p *mockProvider) OpenEphemeralResource(_ context.Context, req providers.OpenEphemeralResourceRequest) providers.OpenEphemeralResourceResponse {
	s, ok := p.schema.EphemeralResources[req.TypeName]
	if !ok {
		return providers.OpenEphemeralResourceResponse{Diagnostics: unknownType(req.TypeName)}
	}
	return providers.OpenEphemeralResourceResponse{Result: p.fillComputed(s.Block, req.Config, req.Config, p.data[req.TypeName], false)}
}

// RenewEphemeralResource implements providers.EphemeralResourceProvider.
func (p *mockProvider) RenewEphemeralResource(context.Context, providers.RenewEphemeralResourceRequest) providers.RenewEphemeralResourceResponse {
	return providers.RenewEphemeralResourceResponse{}
}

// CloseEphemeralResource implements providers.EphemeralResourceProvider.
func (p *mockProvider) CloseEphemeralResource(context.Context, providers.CloseEphemeralResourceRequest) providers.CloseEphemeralResourceResponse {
	return providers.CloseEphemeralResourceResponse{}
}
