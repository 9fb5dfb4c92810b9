package providers

import (
	"context"

	"github.com/cairn-iac/cairn/internal/diags"
)

// An instance the library started offers resource identities and list
// resources through the instance it wraps, so the engine's type
// assertions see the capabilities of the provider behind it.
var (
	_ IdentityProvider     = (*tracked)(nil)
	_ ListResourceProvider = (*tracked)(nil)
)

// GetResourceIdentitySchemas implements IdentityProvider: none when the
// wrapped instance has no identities.
func (t *tracked) GetResourceIdentitySchemas(ctx context.Context) GetResourceIdentitySchemasResponse {
	if ip, ok := t.Interface.(IdentityProvider); ok {
		return ip.GetResourceIdentitySchemas(ctx)
	}
	return GetResourceIdentitySchemasResponse{}
}

// UpgradeResourceIdentity implements IdentityProvider.
func (t *tracked) UpgradeResourceIdentity(ctx context.Context, req UpgradeResourceIdentityRequest) UpgradeResourceIdentityResponse {
	if ip, ok := t.Interface.(IdentityProvider); ok {
		return ip.UpgradeResourceIdentity(ctx, req)
	}
	return UpgradeResourceIdentityResponse{Diagnostics: noIdentities(req.TypeName)}
}

// GetListResourceSchemas implements ListResourceProvider: none when the
// wrapped instance lists nothing.
func (t *tracked) GetListResourceSchemas(ctx context.Context) GetListResourceSchemasResponse {
	if lp, ok := t.Interface.(ListResourceProvider); ok {
		return lp.GetListResourceSchemas(ctx)
	}
	return GetListResourceSchemasResponse{}
}

// ValidateListResourceConfig implements ListResourceProvider.
func (t *tracked) ValidateListResourceConfig(ctx context.Context, req ValidateListResourceConfigRequest) ValidateListResourceConfigResponse {
	if lp, ok := t.Interface.(ListResourceProvider); ok {
		return lp.ValidateListResourceConfig(ctx, req)
	}
	return ValidateListResourceConfigResponse{Diagnostics: noLists(req.TypeName)}
}

// ListResource implements ListResourceProvider.
func (t *tracked) ListResource(ctx context.Context, req ListResourceRequest) ListResourceResponse {
	if lp, ok := t.Interface.(ListResourceProvider); ok {
		return lp.ListResource(ctx, req)
	}
	return ListResourceResponse{Diagnostics: noLists(req.TypeName)}
}

func noIdentities(typeName string) diags.Diagnostics {
	return diags.Diagnostics{diags.Errorf("Unsupported resource identity", "The provider has no identity for resource type %q.", typeName)}
}

func noLists(typeName string) diags.Diagnostics {
	return diags.Diagnostics{diags.Errorf("Unsupported list resource", "The provider does not list resources of type %q (plugin protocol 6.10).", typeName)}
}
