package providers

import (
	"context"

	"github.com/cairn-iac/cairn/internal/diags"
)

// An instance the library started offers ephemeral resources through the
// instance it wraps, so the engine's type assertion sees them.
var _ EphemeralResourceProvider = (*tracked)(nil)

// noEphemeral answers for a wrapped instance without ephemeral
// resources; the engine finds no schema for such types first, so this is
// a guard.
func noEphemeral(typeName string) diags.Diagnostics {
	return diags.Diagnostics{diags.Errorf("Unsupported ephemeral resource", "The provider has no ephemeral resource type %q.", typeName)}
}

func (t *tracked) ephemeral() (EphemeralResourceProvider, bool) {
	ep, ok := t.Interface.(EphemeralResourceProvider)
	return ep, ok
}

// GetEphemeralResourceSchemas implements EphemeralResourceProvider: none
// when the wrapped instance has none.
func (t *tracked) GetEphemeralResourceSchemas(ctx context.Context) GetEphemeralResourceSchemasResponse {
	if ep, ok := t.ephemeral(); ok {
		return ep.GetEphemeralResourceSchemas(ctx)
	}
	return GetEphemeralResourceSchemasResponse{}
}

// ValidateEphemeralResourceConfig implements EphemeralResourceProvider.
func (t *tracked) ValidateEphemeralResourceConfig(ctx context.Context, req ValidateEphemeralResourceConfigRequest) ValidateEphemeralResourceConfigResponse {
	if ep, ok := t.ephemeral(); ok {
		return ep.ValidateEphemeralResourceConfig(ctx, req)
	}
	return ValidateEphemeralResourceConfigResponse{Diagnostics: noEphemeral(req.TypeName)}
}

// OpenEphemeralResource implements EphemeralResourceProvider.
func (t *tracked) OpenEphemeralResource(ctx context.Context, req OpenEphemeralResourceRequest) OpenEphemeralResourceResponse {
	if ep, ok := t.ephemeral(); ok {
		return ep.OpenEphemeralResource(ctx, req)
	}
	return OpenEphemeralResourceResponse{Diagnostics: noEphemeral(req.TypeName)}
}

// RenewEphemeralResource implements EphemeralResourceProvider.
func (t *tracked) RenewEphemeralResource(ctx context.Context, req RenewEphemeralResourceRequest) RenewEphemeralResourceResponse {
	if ep, ok := t.ephemeral(); ok {
		return ep.RenewEphemeralResource(ctx, req)
	}
	return RenewEphemeralResourceResponse{Diagnostics: noEphemeral(req.TypeName)}
}

// CloseEphemeralResource implements EphemeralResourceProvider.
func (t *tracked) CloseEphemeralResource(ctx context.Context, req CloseEphemeralResourceRequest) CloseEphemeralResourceResponse {
	if ep, ok := t.ephemeral(); ok {
		return ep.CloseEphemeralResource(ctx, req)
	}
	return CloseEphemeralResourceResponse{Diagnostics: noEphemeral(req.TypeName)}
}
