package testfiles

import (
	"context"
	"sync"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/zclconf/go-cty/cty"
)

// lazyProvider stands in for a real provider some of whose
// configurations a test file mocks (mock_provider "aws" { alias = "x" }
// mocks aws.x, not aws). The engine configures every configuration the
// module has; a mocked one must not reach the real provider (it may
// need credentials the test does not have), so the configuration is
// kept and the real provider started, validated and configured with it
// only when a resource that is not mocked first needs it. The run's
// resource hook gives mocked resources their mock and the others this.
type lazyProvider struct {
	factory providers.Factory
	schema  *providers.GetProviderSchemaResponse

	mu         sync.Mutex
	configured bool
	config     *providers.ConfigureProviderRequest
	real       providers.Interface
	startDiags diags.Diagnostics
}

var _ providers.Interface = (*lazyProvider)(nil)

// started returns the real provider, started (and, when the engine
// configured this one, configured) on first use; its diagnostics are
// the start's, reported by every call that needed it.
func (p *lazyProvider) started(ctx context.Context, configure bool) (providers.Interface, diags.Diagnostics) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.real == nil && !p.startDiags.HasErrors() {
		real, err := p.factory()
		if err != nil {
			p.startDiags = diags.Diagnostics{diags.Errorf("Failed to start the provider", "%s.", err)}
		}
		p.real = real
	}
	if p.startDiags.HasErrors() || !configure || p.configured || p.config == nil {
		return p.real, p.startDiags
	}
	p.configured = true
	v := p.real.ValidateProviderConfig(ctx, providers.ValidateProviderConfigRequest{Config: p.config.Config})
	if v.Diagnostics.HasErrors() {
		p.startDiags = v.Diagnostics
		return p.real, p.startDiags
	}
	req := *p.config
	if v.PreparedConfig != cty.NilVal {
		req.Config = v.PreparedConfig
	}
	if r := p.real.ConfigureProvider(ctx, req); r.Diagnostics.HasErrors() {
		p.startDiags = r.Diagnostics
	}
	return p.real, p.startDiags
}

// GetProviderSchema implements providers.Interface from the schema the
// real provider gave when the module was first loaded.
func (p *lazyProvider) GetProviderSchema(context.Context) providers.GetProviderSchemaResponse {
	return *p.schema
}

// ValidateProviderConfig implements providers.Interface: validation
// waits for the first use (a mocked configuration is never validated).
func (p *lazyProvider) ValidateProviderConfig(_ context.Context, req providers.ValidateProviderConfigRequest) providers.ValidateProviderConfigResponse {
	return providers.ValidateProviderConfigResponse{PreparedConfig: req.Config}
}

// ConfigureProvider implements providers.Interface: the configuration
// is kept for the first use.
func (p *lazyProvider) ConfigureProvider(_ context.Context, req providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	p.mu.Lock()
	p.config = &req
	p.mu.Unlock()
	return providers.ConfigureProviderResponse{}
}

// ValidateResourceConfig implements providers.Interface.
func (p *lazyProvider) ValidateResourceConfig(ctx context.Context, req providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
	real, ds := p.started(ctx, false)
	if ds.HasErrors() {
		return providers.ValidateResourceConfigResponse{Diagnostics: ds}
	}
	return real.ValidateResourceConfig(ctx, req)
}

// ValidateDataResourceConfig implements providers.Interface.
func (p *lazyProvider) ValidateDataResourceConfig(ctx context.Context, req providers.ValidateDataResourceConfigRequest) providers.ValidateDataResourceConfigResponse {
	real, ds := p.started(ctx, false)
	if ds.HasErrors() {
		return providers.ValidateDataResourceConfigResponse{Diagnostics: ds}
	}
	return real.ValidateDataResourceConfig(ctx, req)
}

// UpgradeResourceState implements providers.Interface.
func (p *lazyProvider) UpgradeResourceState(ctx context.Context, req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	real, ds := p.started(ctx, false)
	if ds.HasErrors() {
		return providers.UpgradeResourceStateResponse{Diagnostics: ds}
	}
	return real.UpgradeResourceState(ctx, req)
}

// ReadResource implements providers.Interface.
func (p *lazyProvider) ReadResource(ctx context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
	real, ds := p.started(ctx, true)
	if ds.HasErrors() {
		return providers.ReadResourceResponse{Diagnostics: ds}
	}
	return real.ReadResource(ctx, req)
}

// PlanResourceChange implements providers.Interface.
func (p *lazyProvider) PlanResourceChange(ctx context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	real, ds := p.started(ctx, true)
	if ds.HasErrors() {
		return providers.PlanResourceChangeResponse{Diagnostics: ds}
	}
	return real.PlanResourceChange(ctx, req)
}

// ApplyResourceChange implements providers.Interface.
func (p *lazyProvider) ApplyResourceChange(ctx context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	real, ds := p.started(ctx, true)
	if ds.HasErrors() {
		return providers.ApplyResourceChangeResponse{Diagnostics: ds}
	}
	return real.ApplyResourceChange(ctx, req)
}

// ImportResourceState implements providers.Interface.
func (p *lazyProvider) ImportResourceState(ctx context.Context, req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	real, ds := p.started(ctx, true)
	if ds.HasErrors() {
		return providers.ImportResourceStateResponse{Diagnostics: ds}
	}
	return real.ImportResourceState(ctx, req)
}

// ReadDataSource implements providers.Interface.
func (p *lazyProvider) ReadDataSource(ctx context.Context, req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	real, ds := p.started(ctx, true)
	if ds.HasErrors() {
		return providers.ReadDataSourceResponse{Diagnostics: ds}
	}
	return real.ReadDataSource(ctx, req)
}

// StopProvider implements providers.Interface.
func (p *lazyProvider) StopProvider(ctx context.Context) error {
	p.mu.Lock()
	real := p.real
	p.mu.Unlock()
	if real == nil {
		return nil
	}
	return real.StopProvider(ctx)
}

// Close implements providers.Interface.
func (p *lazyProvider) Close() error {
	p.mu.Lock()
	real := p.real
	p.mu.Unlock()
	if real == nil {
		return nil
	}
	return real.Close()
}
