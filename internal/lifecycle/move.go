package lifecycle

import (
	"context"
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/objchange"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
)

// MovedFrom is where a cross-type move (Terraform 1.8's `moved` between
// resource types or providers) found a stored object: its provider and
// resource type in the previous run's state.
type MovedFrom struct {
	Provider addrs.Provider
	TypeName string
}

// MoveState reads a stored object of another resource type through the
// target provider's MoveResourceState, which receives it as stored (raw
// JSON under the source type's schema version, with its private data),
// and checks the answer as UpgradeState checks an upgrade. The caller has
// checked the provider declares the capability.
func MoveState(ctx context.Context, t *Target, src *states.ObjectSrc) (*states.Object, diags.Diagnostics) {
	mover, ok := t.Provider.(providers.StateMover)
	if !ok {
		return nil, diags.Diagnostics{t.contractError("Provider cannot move state",
			"the provider declares the move_resource_state capability but its client cannot call MoveResourceState")}
	}
	resp := mover.MoveResourceState(ctx, providers.MoveResourceStateRequest{
		SourceProviderAddress: t.MovedFrom.Provider.String(), SourceTypeName: t.MovedFrom.TypeName,
		SourceSchemaVersion: int64(src.SchemaVersion), SourceStateJSON: src.AttrsJSON, SourcePrivate: src.Private,
		TargetTypeName: t.typeName(),
	})
	ds := t.located(resp.Diagnostics)
	if ds.HasErrors() {
		return nil, ds
	}
	val := resp.TargetState
	if errs := val.Type().TestConformance(t.Schema.ImpliedType()); len(errs) > 0 {
		return nil, ds.Append(t.contractError("Invalid resource state transformation",
			fmt.Sprintf("moving the object from %s produced a value that does not conform to the schema: %s", t.MovedFrom.TypeName, errs[0])))
	}
	if errs := objchange.AssertWhollyKnown(val); len(errs) > 0 {
		return nil, ds.Append(t.contractError("Invalid resource state transformation",
			fmt.Sprintf("moving the object from %s produced an unknown value at %s", t.MovedFrom.TypeName, errs[0])))
	}
	return &states.Object{
		Value: t.Schema.MarkSensitive(val), Private: resp.TargetPrivate, Status: src.Status,
		Dependencies: src.Dependencies, CreateBeforeDestroy: src.CreateBeforeDestroy,
	}, ds
}
