package tfproto6

import (
	"context"
	"fmt"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers/wire"

	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// Each operation encodes its request with the schema's implied type, calls
// the server under guard, and decodes the answer with the same type. An
// encoding or decoding failure is a bug on one side of the boundary and is
// reported as such; it never reaches the user as a bad value.

// ValidateProviderConfig implements providers.Interface.
func (p *Provider) ValidateProviderConfig(ctx context.Context, req providers.ValidateProviderConfigRequest) (resp providers.ValidateProviderConfigResponse) {
	const method = "ValidateProviderConfig"
	if resp.Diagnostics = p.schemaErrors(ctx); resp.Diagnostics.HasErrors() {
		return resp
	}
	ty := p.providerType(ctx)
	var c codec
	preq := &tfprotov6.ValidateProviderConfigRequest{Config: c.encode("configuration", req.Config, ty)}
	presp, err := invoke(&c, func() (*tfprotov6.ValidateProviderConfigResponse, error) {
		return p.server.ValidateProviderConfig(ctx, preq)
	})
	if err != nil {
		resp.Diagnostics = callFailed(method, err)
		return resp
	}
	resp.Diagnostics = convertDiagnostics(presp.Diagnostics)
	resp.PreparedConfig = req.Config
	if presp.PreparedConfig != nil {
		resp.PreparedConfig = c.decode("prepared configuration", presp.PreparedConfig, ty)
	}
	if c.Err != nil {
		resp.Diagnostics = resp.Diagnostics.Append(callFailed(method, c.Err))
	}
	return resp
}

// ConfigureProvider implements providers.Interface.
func (p *Provider) ConfigureProvider(ctx context.Context, req providers.ConfigureProviderRequest) (resp providers.ConfigureProviderResponse) {
	const method = "ConfigureProvider"
	if resp.Diagnostics = p.schemaErrors(ctx); resp.Diagnostics.HasErrors() {
		return resp
	}
	var c codec
	preq := &tfprotov6.ConfigureProviderRequest{
		TerraformVersion:   req.TerraformVersion,
		Config:             c.encode("configuration", req.Config, p.providerType(ctx)),
		ClientCapabilities: &tfprotov6.ConfigureProviderClientCapabilities{},
	}
	presp, err := invoke(&c, func() (*tfprotov6.ConfigureProviderResponse, error) { return p.server.ConfigureProvider(ctx, preq) })
	if err != nil {
		resp.Diagnostics = callFailed(method, err)
		return resp
	}
	resp.Diagnostics = convertDiagnostics(presp.Diagnostics)
	return resp
}

// ValidateResourceConfig implements providers.Interface. Write-only
// attributes (protocol 6.8) are allowed: the engine sends their values
// and keeps them out of plan and state (lifecycle checks the provider's
// answers are null there).
func (p *Provider) ValidateResourceConfig(ctx context.Context, req providers.ValidateResourceConfigRequest) (resp providers.ValidateResourceConfigResponse) {
	const method = "ValidateResourceConfig"
	ty, ds := p.resourceType(ctx, req.TypeName)
	if resp.Diagnostics = ds; ds.HasErrors() {
		return resp
	}
	var c codec
	preq := &tfprotov6.ValidateResourceConfigRequest{
		TypeName:           req.TypeName,
		Config:             c.encode("configuration", req.Config, ty),
		ClientCapabilities: &tfprotov6.ValidateResourceConfigClientCapabilities{WriteOnlyAttributesAllowed: true},
	}
	presp, err := invoke(&c, func() (*tfprotov6.ValidateResourceConfigResponse, error) {
		return p.server.ValidateResourceConfig(ctx, preq)
	})
	if err != nil {
		resp.Diagnostics = callFailed(method, err)
		return resp
	}
	resp.Diagnostics = convertDiagnostics(presp.Diagnostics)
	return resp
}

// ValidateDataResourceConfig implements providers.Interface.
func (p *Provider) ValidateDataResourceConfig(ctx context.Context, req providers.ValidateDataResourceConfigRequest) (resp providers.ValidateDataResourceConfigResponse) {
	const method = "ValidateDataResourceConfig"
	ty, ds := p.dataSourceType(ctx, req.TypeName)
	if resp.Diagnostics = ds; ds.HasErrors() {
		return resp
	}
	var c codec
	preq := &tfprotov6.ValidateDataResourceConfigRequest{TypeName: req.TypeName, Config: c.encode("configuration", req.Config, ty)}
	presp, err := invoke(&c, func() (*tfprotov6.ValidateDataResourceConfigResponse, error) {
		return p.server.ValidateDataResourceConfig(ctx, preq)
	})
	if err != nil {
		resp.Diagnostics = callFailed(method, err)
		return resp
	}
	resp.Diagnostics = convertDiagnostics(presp.Diagnostics)
	return resp
}

// UpgradeResourceState implements providers.Interface. The stored object
// travels as JSON, as Terraform sends it; the answer is decoded with the
// current schema.
func (p *Provider) UpgradeResourceState(ctx context.Context, req providers.UpgradeResourceStateRequest) (resp providers.UpgradeResourceStateResponse) {
	const method = "UpgradeResourceState"
	ty, ds := p.resourceType(ctx, req.TypeName)
	if resp.Diagnostics = ds; ds.HasErrors() {
		return resp
	}
	var c codec
	preq := &tfprotov6.UpgradeResourceStateRequest{
		TypeName: req.TypeName,
		Version:  req.Version,
		RawState: &tfprotov6.RawState{JSON: req.RawJSON},
	}
	presp, err := invoke(&c, func() (*tfprotov6.UpgradeResourceStateResponse, error) {
		return p.server.UpgradeResourceState(ctx, preq)
	})
	if err != nil {
		resp.Diagnostics = callFailed(method, err)
		return resp
	}
	resp.Diagnostics = convertDiagnostics(presp.Diagnostics)
	resp.UpgradedState = c.decode("upgraded state", presp.UpgradedState, ty)
	if c.Err != nil {
		resp.Diagnostics = resp.Diagnostics.Append(callFailed(method, c.Err))
	}
	return resp
}

// ReadResource implements providers.Interface.
func (p *Provider) ReadResource(ctx context.Context, req providers.ReadResourceRequest) (resp providers.ReadResourceResponse) {
	const method = "ReadResource"
	ty, ds := p.resourceType(ctx, req.TypeName)
	if resp.Diagnostics = ds; ds.HasErrors() {
		return resp
	}
	var c codec
	preq := &tfprotov6.ReadResourceRequest{
		TypeName:           req.TypeName,
		CurrentState:       c.encode("prior state", req.PriorState, ty),
		Private:            req.Private,
		ProviderMeta:       c.encode("provider_meta", req.ProviderMeta, p.metaType(ctx)),
		ClientCapabilities: &tfprotov6.ReadResourceClientCapabilities{},
		CurrentIdentity:    p.encodeIdentity(ctx, &c, req.TypeName, req.CurrentIdentity),
	}
	presp, err := invoke(&c, func() (*tfprotov6.ReadResourceResponse, error) { return p.server.ReadResource(ctx, preq) })
	if err != nil {
		resp.Diagnostics = callFailed(method, err)
		return resp
	}
	resp.Diagnostics = convertDiagnostics(presp.Diagnostics).Append(deferred(method, presp.Deferred))
	resp.NewState = c.decode("new state", presp.NewState, ty)
	resp.Private = presp.Private
	resp.NewIdentity = p.decodeIdentity(ctx, &c, req.TypeName, presp.NewIdentity)
	if c.Err != nil {
		resp.Diagnostics = resp.Diagnostics.Append(callFailed(method, c.Err))
	}
	return resp
}

// PlanResourceChange implements providers.Interface.
func (p *Provider) PlanResourceChange(ctx context.Context, req providers.PlanResourceChangeRequest) (resp providers.PlanResourceChangeResponse) {
	const method = "PlanResourceChange"
	ty, ds := p.resourceType(ctx, req.TypeName)
	if resp.Diagnostics = ds; ds.HasErrors() {
		return resp
	}
	var c codec
	preq := &tfprotov6.PlanResourceChangeRequest{
		TypeName:           req.TypeName,
		PriorState:         c.encode("prior state", req.PriorState, ty),
		ProposedNewState:   c.encode("proposed new state", req.ProposedNewState, ty),
		Config:             c.encode("configuration", req.Config, ty),
		PriorPrivate:       req.PriorPrivate,
		ProviderMeta:       c.encode("provider_meta", req.ProviderMeta, p.metaType(ctx)),
		ClientCapabilities: &tfprotov6.PlanResourceChangeClientCapabilities{},
		PriorIdentity:      p.encodeIdentity(ctx, &c, req.TypeName, req.PriorIdentity),
	}
	presp, err := invoke(&c, func() (*tfprotov6.PlanResourceChangeResponse, error) { return p.server.PlanResourceChange(ctx, preq) })
	if err != nil {
		resp.Diagnostics = callFailed(method, err)
		return resp
	}
	resp.Diagnostics = convertDiagnostics(presp.Diagnostics).Append(deferred(method, presp.Deferred))
	resp.PlannedState = c.decode("planned state", presp.PlannedState, ty)
	resp.RequiresReplace = wire.Paths(presp.RequiresReplace)
	resp.PlannedPrivate = presp.PlannedPrivate
	resp.LegacyTypeSystem = presp.UnsafeToUseLegacyTypeSystem
	resp.PlannedIdentity = p.decodeIdentity(ctx, &c, req.TypeName, presp.PlannedIdentity)
	if c.Err != nil {
		resp.Diagnostics = resp.Diagnostics.Append(callFailed(method, c.Err))
	}
	return resp
}

// ApplyResourceChange implements providers.Interface.
func (p *Provider) ApplyResourceChange(ctx context.Context, req providers.ApplyResourceChangeRequest) (resp providers.ApplyResourceChangeResponse) {
	const method = "ApplyResourceChange"
	ty, ds := p.resourceType(ctx, req.TypeName)
	if resp.Diagnostics = ds; ds.HasErrors() {
		return resp
	}
	var c codec
	preq := &tfprotov6.ApplyResourceChangeRequest{
		TypeName:        req.TypeName,
		PriorState:      c.encode("prior state", req.PriorState, ty),
		PlannedState:    c.encode("planned state", req.PlannedState, ty),
		Config:          c.encode("configuration", req.Config, ty),
		PlannedPrivate:  req.PlannedPrivate,
		ProviderMeta:    c.encode("provider_meta", req.ProviderMeta, p.metaType(ctx)),
		PlannedIdentity: p.encodeIdentity(ctx, &c, req.TypeName, req.PlannedIdentity),
	}
	presp, err := invoke(&c, func() (*tfprotov6.ApplyResourceChangeResponse, error) { return p.server.ApplyResourceChange(ctx, preq) })
	if err != nil {
		resp.Diagnostics = callFailed(method, err)
		return resp
	}
	resp.Diagnostics = convertDiagnostics(presp.Diagnostics)
	resp.NewState = c.decode("new state", presp.NewState, ty)
	resp.Private = presp.Private
	resp.LegacyTypeSystem = presp.UnsafeToUseLegacyTypeSystem
	resp.NewIdentity = p.decodeIdentity(ctx, &c, req.TypeName, presp.NewIdentity)
	if c.Err != nil {
		resp.Diagnostics = resp.Diagnostics.Append(callFailed(method, c.Err))
	}
	return resp
}

// ImportResourceState implements providers.Interface. Each imported object
// is decoded with the schema of the type it names, which may differ from
// the requested type.
func (p *Provider) ImportResourceState(ctx context.Context, req providers.ImportResourceStateRequest) (resp providers.ImportResourceStateResponse) {
	const method = "ImportResourceState"
	if _, ds := p.resourceType(ctx, req.TypeName); ds.HasErrors() {
		resp.Diagnostics = ds
		return resp
	}
	var c codec
	preq := &tfprotov6.ImportResourceStateRequest{
		TypeName:           req.TypeName,
		ID:                 req.ID,
		ClientCapabilities: &tfprotov6.ImportResourceStateClientCapabilities{},
		Identity:           p.encodeIdentity(ctx, &c, req.TypeName, req.Identity),
	}
	presp, err := invoke(&c, func() (*tfprotov6.ImportResourceStateResponse, error) { return p.server.ImportResourceState(ctx, preq) })
	if err != nil {
		resp.Diagnostics = callFailed(method, err)
		return resp
	}
	resp.Diagnostics = convertDiagnostics(presp.Diagnostics).Append(deferred(method, presp.Deferred))
	for _, ir := range presp.ImportedResources {
		if ir == nil {
			continue
		}
		ty, ds := p.resourceType(ctx, ir.TypeName)
		if ds.HasErrors() {
			resp.Diagnostics = resp.Diagnostics.Append(callFailed(method, fmt.Errorf("imported an object of unknown type %q", ir.TypeName)))
			continue
		}
		resp.ImportedResources = append(resp.ImportedResources, providers.ImportedResource{
			TypeName: ir.TypeName,
			State:    c.decode("imported "+ir.TypeName, ir.State, ty),
			Private:  ir.Private,
			Identity: p.decodeIdentity(ctx, &c, ir.TypeName, ir.Identity),
		})
	}
	if c.Err != nil {
		resp.Diagnostics = resp.Diagnostics.Append(callFailed(method, c.Err))
	}
	return resp
}

// ReadDataSource implements providers.Interface.
func (p *Provider) ReadDataSource(ctx context.Context, req providers.ReadDataSourceRequest) (resp providers.ReadDataSourceResponse) {
	const method = "ReadDataSource"
	ty, ds := p.dataSourceType(ctx, req.TypeName)
	if resp.Diagnostics = ds; ds.HasErrors() {
		return resp
	}
	var c codec
	preq := &tfprotov6.ReadDataSourceRequest{
		TypeName:           req.TypeName,
		Config:             c.encode("configuration", req.Config, ty),
		ProviderMeta:       c.encode("provider_meta", req.ProviderMeta, p.metaType(ctx)),
		ClientCapabilities: &tfprotov6.ReadDataSourceClientCapabilities{},
	}
	presp, err := invoke(&c, func() (*tfprotov6.ReadDataSourceResponse, error) { return p.server.ReadDataSource(ctx, preq) })
	if err != nil {
		resp.Diagnostics = callFailed(method, err)
		return resp
	}
	resp.Diagnostics = convertDiagnostics(presp.Diagnostics).Append(deferred(method, presp.Deferred))
	resp.State = c.decode("state", presp.State, ty)
	if c.Err != nil {
		resp.Diagnostics = resp.Diagnostics.Append(callFailed(method, c.Err))
	}
	return resp
}

// schemaErrors returns the schema's diagnostics when it failed to load, so
// operations that need it stop there.
func (p *Provider) schemaErrors(ctx context.Context) diags.Diagnostics {
	if ds := p.schema(ctx).Diagnostics; ds.HasErrors() {
		return ds
	}
	return nil
}
