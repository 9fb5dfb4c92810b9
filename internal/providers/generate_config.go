package providers

import (
	"context"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/zclconf/go-cty/cty"
)

// GenerateResourceConfigRequest asks a provider for the configuration
// that would manage an object it listed (plugin protocol 6.10): State is
// the object, a value of TypeName's schema.
type GenerateResourceConfigRequest struct {
	TypeName string
	State    cty.Value
}

// GenerateResourceConfigResponse is the configuration, a value of the
// resource type's schema whose computed-only attributes are null, which
// the caller writes out as a resource block.
type GenerateResourceConfigResponse struct {
	Config      cty.Value
	Diagnostics diags.Diagnostics
}

// ConfigGenerator is the capability of a provider instance to say which
// configuration manages one of its objects. Instances of plugin and
// in-process protocol 6 providers have it; the caller checks by type
// assertion and calls it only when the provider's schema declares the
// server capability GenerateResourceConfig, as Terraform 1.14 does, and
// otherwise writes the configuration itself (internal/genconfig).
type ConfigGenerator interface {
	GenerateResourceConfig(ctx context.Context, req GenerateResourceConfigRequest) GenerateResourceConfigResponse
}

// GenerateResourceConfig implements ConfigGenerator for an instance the
// library started, through the instance it wraps.
func (t *tracked) GenerateResourceConfig(ctx context.Context, req GenerateResourceConfigRequest) GenerateResourceConfigResponse {
	if g, ok := t.Interface.(ConfigGenerator); ok {
		return g.GenerateResourceConfig(ctx, req)
	}
	return GenerateResourceConfigResponse{Diagnostics: diags.Diagnostics{diags.Errorf("Provider cannot generate configuration",
		"The provider instance does not implement GenerateResourceConfig.")}}
}

var _ ConfigGenerator = (*tracked)(nil)
