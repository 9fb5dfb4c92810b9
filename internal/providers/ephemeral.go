package providers

import (
	"context"
	"time"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/zclconf/go-cty/cty"
)

// EphemeralResourceProvider is implemented by a provider that has
// ephemeral resources (plugin protocol 6.7 and 5.7, Terraform 1.10): an
// `ephemeral "TYPE" "NAME"` block is opened when a value from it is
// needed, renewed before its RenewAt, and closed at the end of the run;
// its result is an ephemeral value, in no plan or state.
type EphemeralResourceProvider interface {
	// GetEphemeralResourceSchemas returns the schema of every ephemeral
	// resource type (GetProviderSchema's ephemeral_resource_schemas).
	GetEphemeralResourceSchemas(ctx context.Context) GetEphemeralResourceSchemasResponse
	ValidateEphemeralResourceConfig(ctx context.Context, req ValidateEphemeralResourceConfigRequest) ValidateEphemeralResourceConfigResponse
	OpenEphemeralResource(ctx context.Context, req OpenEphemeralResourceRequest) OpenEphemeralResourceResponse
	RenewEphemeralResource(ctx context.Context, req RenewEphemeralResourceRequest) RenewEphemeralResourceResponse
	CloseEphemeralResource(ctx context.Context, req CloseEphemeralResourceRequest) CloseEphemeralResourceResponse
}

// GetEphemeralResourceSchemasResponse holds ephemeral resource schemas by
// type name.
type GetEphemeralResourceSchemasResponse struct {
	EphemeralResourceTypes map[string]Schema
	Diagnostics            diags.Diagnostics
}

type ValidateEphemeralResourceConfigRequest struct {
	TypeName string
	Config   cty.Value
}

type ValidateEphemeralResourceConfigResponse struct {
	Diagnostics diags.Diagnostics
}

// OpenEphemeralResourceRequest opens TypeName with Config, a wholly
// known value of its schema (the engine opens nothing whose configuration
// is not known yet: the result is unknown until it is).
type OpenEphemeralResourceRequest struct {
	TypeName string
	Config   cty.Value
}

// OpenEphemeralResourceResponse is the opened resource: Result, a value
// of its schema; RenewAt, when set, the time by which Renew must be
// called to keep it valid; Private, the provider's data for Renew and
// Close.
type OpenEphemeralResourceResponse struct {
	Result      cty.Value
	RenewAt     time.Time
	Private     []byte
	Diagnostics diags.Diagnostics
}

type RenewEphemeralResourceRequest struct {
	TypeName string
	Private  []byte
}

// RenewEphemeralResourceResponse carries the next renewal time (zero when
// none is needed) and the provider's new private data.
type RenewEphemeralResourceResponse struct {
	RenewAt     time.Time
	Private     []byte
	Diagnostics diags.Diagnostics
}

type CloseEphemeralResourceRequest struct {
	TypeName string
	Private  []byte
}

type CloseEphemeralResourceResponse struct {
	Diagnostics diags.Diagnostics
}
