package providers

import (
	"context"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/zclconf/go-cty/cty"
)

// Interface is one provider instance: the operations of plugin protocol v6.
//
// Values crossing the interface are unmarked (no sensitive marks): the
// engine removes marks before a call and re-applies them to the answer.
// Implementations must be safe for concurrent use once configured.
type Interface interface {
	GetProviderSchema(ctx context.Context) GetProviderSchemaResponse
	ValidateProviderConfig(ctx context.Context, req ValidateProviderConfigRequest) ValidateProviderConfigResponse
	ConfigureProvider(ctx context.Context, req ConfigureProviderRequest) ConfigureProviderResponse
	ValidateResourceConfig(ctx context.Context, req ValidateResourceConfigRequest) ValidateResourceConfigResponse
	ValidateDataResourceConfig(ctx context.Context, req ValidateDataResourceConfigRequest) ValidateDataResourceConfigResponse
	UpgradeResourceState(ctx context.Context, req UpgradeResourceStateRequest) UpgradeResourceStateResponse
	ReadResource(ctx context.Context, req ReadResourceRequest) ReadResourceResponse
	PlanResourceChange(ctx context.Context, req PlanResourceChangeRequest) PlanResourceChangeResponse
	ApplyResourceChange(ctx context.Context, req ApplyResourceChangeRequest) ApplyResourceChangeResponse
	ImportResourceState(ctx context.Context, req ImportResourceStateRequest) ImportResourceStateResponse
	ReadDataSource(ctx context.Context, req ReadDataSourceRequest) ReadDataSourceResponse
	// StopProvider asks the provider to cancel in-flight operations.
	StopProvider(ctx context.Context) error
	// Close releases the provider (ends a plugin process).
	Close() error
}

// Schema is the schema of a provider, resource type or data source, with its
// version (resource types only; used to decide when to upgrade state).
type Schema struct {
	Version int64
	Block   *configschema.Block
}

// GetProviderSchemaResponse describes everything a provider offers.
type GetProviderSchemaResponse struct {
	Provider      Schema
	ProviderMeta  Schema
	ResourceTypes map[string]Schema
	DataSources   map[string]Schema
	// EphemeralResources are the ephemeral resource types, by name: what
	// an EphemeralResourceProvider's GetEphemeralResourceSchemas gave
	// (Library fills them in), nil for a provider without any.
	EphemeralResources map[string]Schema
	// ServerCapabilities.PlanDestroy: the provider wants PlanResourceChange
	// called for deletes too.
	PlanDestroy bool
	// ServerCapabilities.GetProviderSchemaOptional: the provider serves
	// every call without having been asked for its schema first, so a
	// client holding the schema (in memory or on disk) need not ask each
	// new process for it. Without it, every process is asked once, as
	// Terraform does.
	GetProviderSchemaOptional bool
	// ServerCapabilities.MoveResourceState: the provider answers
	// MoveResourceState, so a moved block may change a resource's type
	// to one of this provider's.
	MoveResourceState bool
	// ServerCapabilities.GenerateResourceConfig: the provider answers
	// GenerateResourceConfig (see ConfigGenerator), so the configuration
	// cairn query -generate-config-out writes for its objects is its own.
	GenerateResourceConfig bool
	// Functions are the provider-defined functions, by name (without the
	// provider:: prefix): provider::LOCAL::NAME in the language.
	Functions   map[string]Function
	Diagnostics diags.Diagnostics
}

type ValidateProviderConfigRequest struct {
	Config cty.Value
}

type ValidateProviderConfigResponse struct {
	PreparedConfig cty.Value
	Diagnostics    diags.Diagnostics
}

type ConfigureProviderRequest struct {
	TerraformVersion string
	Config           cty.Value
}

type ConfigureProviderResponse struct {
	Diagnostics diags.Diagnostics
}

type ValidateResourceConfigRequest struct {
	TypeName string
	Config   cty.Value
}

type ValidateResourceConfigResponse struct {
	Diagnostics diags.Diagnostics
}

type ValidateDataResourceConfigRequest struct {
	TypeName string
	Config   cty.Value
}

type ValidateDataResourceConfigResponse struct {
	Diagnostics diags.Diagnostics
}

// UpgradeResourceStateRequest carries a stored object in its raw JSON form,
// written under schema Version, for the provider to bring up to its current
// schema.
type UpgradeResourceStateRequest struct {
	TypeName string
	Version  int64
	RawJSON  []byte
}

type UpgradeResourceStateResponse struct {
	UpgradedState cty.Value
	Diagnostics   diags.Diagnostics
}

type ReadResourceRequest struct {
	TypeName     string
	PriorState   cty.Value
	Private      []byte
	ProviderMeta cty.Value
	// CurrentIdentity is the stored identity (see IdentityProvider);
	// cty.NilVal when there is none.
	CurrentIdentity cty.Value
}

type ReadResourceResponse struct {
	NewState    cty.Value
	Private     []byte
	Diagnostics diags.Diagnostics
	// NewIdentity is the object's identity; cty.NilVal from a provider
	// without identities.
	NewIdentity cty.Value
}

// PlanResourceChangeRequest asks the provider to plan a change. For a
// create, PriorState is null; for a delete (with PlanDestroy), ProposedNewState
// and Config are null.
type PlanResourceChangeRequest struct {
	TypeName         string
	PriorState       cty.Value
	ProposedNewState cty.Value
	Config           cty.Value
	PriorPrivate     []byte
	ProviderMeta     cty.Value
	// PriorIdentity is the stored identity; cty.NilVal when none.
	PriorIdentity cty.Value
}

type PlanResourceChangeResponse struct {
	PlannedState    cty.Value
	RequiresReplace []cty.Path
	PlannedPrivate  []byte
	Diagnostics     diags.Diagnostics
	// PlannedIdentity is the identity the change is planned to leave.
	PlannedIdentity cty.Value
	// LegacyTypeSystem excuses SDKv2 providers from some contract checks,
	// as Terraform does (it then only warns in logs).
	LegacyTypeSystem bool
}

type ApplyResourceChangeRequest struct {
	TypeName       string
	PriorState     cty.Value
	PlannedState   cty.Value
	Config         cty.Value
	PlannedPrivate []byte
	ProviderMeta   cty.Value
	// PlannedIdentity is the planned identity; cty.NilVal when none.
	PlannedIdentity cty.Value
}

type ApplyResourceChangeResponse struct {
	NewState         cty.Value
	Private          []byte
	Diagnostics      diags.Diagnostics
	LegacyTypeSystem bool
	// NewIdentity is the object's identity after the change.
	NewIdentity cty.Value
}

// ImportResourceStateRequest names the object to import by ID or, for
// a provider with identities, by Identity (an import block's identity
// argument; cty.NilVal when importing by ID).
type ImportResourceStateRequest struct {
	TypeName string
	ID       string
	Identity cty.Value
}

// ImportedResource is one object an import produced.
type ImportedResource struct {
	TypeName string
	State    cty.Value
	Private  []byte
	// Identity is the object's identity; cty.NilVal when none.
	Identity cty.Value
}

type ImportResourceStateResponse struct {
	ImportedResources []ImportedResource
	Diagnostics       diags.Diagnostics
}

type ReadDataSourceRequest struct {
	TypeName     string
	Config       cty.Value
	ProviderMeta cty.Value
}

type ReadDataSourceResponse struct {
	State       cty.Value
	Diagnostics diags.Diagnostics
}
