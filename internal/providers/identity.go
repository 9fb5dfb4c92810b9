package providers

import (
	"context"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/zclconf/go-cty/cty"
)

// IdentityProvider is implemented by a provider that serves resource
// identities (plugin protocol 6.9, Terraform 1.12): for each resource
// type, a small object that names one remote object (its primary
// identifier and where it lives), returned with every new state by
// ReadResource, ApplyResourceChange and ImportResourceState (their
// Identity fields) and accepted by ImportResourceState instead of an ID.
// The engine keeps it in state beside the object, upgrades a stored one
// written under an older version, and checks the type's name in
// GetResourceIdentitySchemas before sending or decoding one. A provider
// that does not implement it has no identities; the identity fields of
// its answers stay cty.NilVal.
type IdentityProvider interface {
	GetResourceIdentitySchemas(ctx context.Context) GetResourceIdentitySchemasResponse
	UpgradeResourceIdentity(ctx context.Context, req UpgradeResourceIdentityRequest) UpgradeResourceIdentityResponse
}

// IdentitySchema is one resource type's identity: its attributes, sorted
// by name, and the version stored identities record (the engine asks the
// provider to upgrade an identity stored under another).
type IdentitySchema struct {
	Version    int64
	Attributes []IdentityAttribute
}

// IdentityAttribute is one attribute of an identity. RequiredForImport
// and OptionalForImport say what an import block's identity argument must
// and may set; exactly one of them is true.
type IdentityAttribute struct {
	Name              string
	Type              cty.Type
	Description       string
	RequiredForImport bool
	OptionalForImport bool
}

// ImpliedType is the object type of an identity value.
func (s IdentitySchema) ImpliedType() cty.Type {
	attrs := make(map[string]cty.Type, len(s.Attributes))
	for _, a := range s.Attributes {
		attrs[a.Name] = a.Type
	}
	return cty.Object(attrs)
}

// GetResourceIdentitySchemasResponse holds the identity of every resource
// type that has one, by type name.
type GetResourceIdentitySchemasResponse struct {
	IdentityTypes map[string]IdentitySchema
	Diagnostics   diags.Diagnostics
}

// UpgradeResourceIdentityRequest carries a stored identity in its raw
// JSON form, written under schema Version, for the provider to bring up
// to its current identity schema.
type UpgradeResourceIdentityRequest struct {
	TypeName string
	Version  int64
	RawJSON  []byte
}

type UpgradeResourceIdentityResponse struct {
	UpgradedIdentity cty.Value
	Diagnostics      diags.Diagnostics
}
