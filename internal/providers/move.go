package providers

import (
	"context"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/zclconf/go-cty/cty"
)

// MoveResourceStateRequest asks the target provider to turn a stored
// object of another resource type (and possibly another provider) into an
// object of TargetTypeName (plugin protocol 6.5 and 5.5): a `moved` block
// whose from and to differ in type. The source object travels as it was
// stored, raw JSON under its own schema version, because the target
// provider alone knows how to read the source type's state.
type MoveResourceStateRequest struct {
	// SourceProviderAddress is the source provider's full address
	// (registry.terraform.io/hashicorp/time).
	SourceProviderAddress string
	SourceTypeName        string
	SourceSchemaVersion   int64
	SourceStateJSON       []byte
	SourcePrivate         []byte
	TargetTypeName        string
}

// MoveResourceStateResponse is the moved object under the target type's
// current schema, with its private data.
type MoveResourceStateResponse struct {
	TargetState   cty.Value
	TargetPrivate []byte
	Diagnostics   diags.Diagnostics
}

// StateMover is the capability of a provider instance to move state
// across resource types. Instances of plugin and in-process protocol 6
// providers have it; the caller checks by type assertion, and calls it
// only when the provider's schema declares the server capability
// MoveResourceState, as Terraform does.
type StateMover interface {
	MoveResourceState(ctx context.Context, req MoveResourceStateRequest) MoveResourceStateResponse
}

// MoveResourceState implements StateMover for an instance the library
// started, through the instance it wraps.
func (t *tracked) MoveResourceState(ctx context.Context, req MoveResourceStateRequest) MoveResourceStateResponse {
	if sm, ok := t.Interface.(StateMover); ok {
		return sm.MoveResourceState(ctx, req)
	}
	return MoveResourceStateResponse{Diagnostics: diags.Diagnostics{diags.Errorf("Provider cannot move state",
		"The provider instance does not implement MoveResourceState.")}}
}

var _ StateMover = (*tracked)(nil)
