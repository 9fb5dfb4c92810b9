package enginetest

import (
	"context"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/zclconf/go-cty/cty"
)

// The test provider's ephemeral resource test_token: Open returns value
// "token-<name>" and logs "open <name>", Close logs "close <name>", so
// tests see that every instance opened is closed, whatever the run met.
var _ providers.EphemeralResourceProvider = (*TestProvider)(nil)

var tokenSchema = &configschema.Block{Attributes: map[string]*configschema.Attribute{
	"name":  {Type: cty.String, Required: true},
	"value": {Type: cty.String, Computed: true},
}}

// GetEphemeralResourceSchemas implements providers.EphemeralResourceProvider.
func (p *TestProvider) GetEphemeralResourceSchemas(context.Context) providers.GetEphemeralResourceSchemasResponse {
	return providers.GetEphemeralResourceSchemasResponse{EphemeralResourceTypes: map[string]providers.Schema{"test_token": {Block: tokenSchema}}}
}

// ValidateEphemeralResourceConfig implements providers.EphemeralResourceProvider.
func (p *TestProvider) ValidateEphemeralResourceConfig(context.Context, providers.ValidateEphemeralResourceConfigRequest) providers.ValidateEphemeralResourceConfigResponse {
	return providers.ValidateEphemeralResourceConfigResponse{}
}

// OpenEphemeralResource implements providers.EphemeralResourceProvider.
func (p *TestProvider) OpenEphemeralResource(_ context.Context, req providers.OpenEphemeralResourceRequest) providers.OpenEphemeralResourceResponse {
	name := req.Config.GetAttr("name").AsString()
	p.log("open %s", name)
	return providers.OpenEphemeralResourceResponse{
		Result:  cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name), "value": cty.StringVal("token-" + name)}),
		Private: []byte(name),
	}
}

// RenewEphemeralResource implements providers.EphemeralResourceProvider.
func (p *TestProvider) RenewEphemeralResource(_ context.Context, req providers.RenewEphemeralResourceRequest) providers.RenewEphemeralResourceResponse {
	p.log("renew %s", req.Private)
	return providers.RenewEphemeralResourceResponse{Private: req.Private}
}

// CloseEphemeralResource implements providers.EphemeralResourceProvider.
func (p *TestProvider) CloseEphemeralResource(_ context.Context, req providers.CloseEphemeralResourceRequest) providers.CloseEphemeralResourceResponse {
	p.log("close %s", req.Private)
	return providers.CloseEphemeralResourceResponse{}
}
