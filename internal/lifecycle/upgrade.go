package lifecycle

import (
	"context"
	"fmt"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/objchange"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
)

// UpgradeState decodes a stored object through the provider's
// UpgradeResourceState, which brings it from the schema version it was
// written with to the current one, checks the answer conforms to the
// schema and is wholly known, and re-applies sensitive marks: those state
// recorded and those the schema declares.
func UpgradeState(ctx context.Context, t *Target, src *states.ObjectSrc) (*states.Object, diags.Diagnostics) {
	resp := t.Provider.UpgradeResourceState(ctx, providers.UpgradeResourceStateRequest{
		TypeName: t.typeName(), Version: int64(src.SchemaVersion), RawJSON: src.AttrsJSON,
	})
	ds := t.named(resp.Diagnostics)
	if ds.HasErrors() {
		return nil, ds
	}
	val := resp.UpgradedState
	if errs := val.Type().TestConformance(t.Schema.ImpliedType()); len(errs) > 0 {
		return nil, ds.Append(t.contractError("Provider produced invalid object",
			fmt.Sprintf("upgrading the stored object produced a value that does not conform to the schema: %s", errs[0])))
	}
	if errs := objchange.AssertWhollyKnown(val); len(errs) > 0 {
		return nil, ds.Append(t.contractError("Provider produced invalid object",
			fmt.Sprintf("upgrading the stored object produced an unknown value at %s", errs[0])))
	}
	return &states.Object{
		Value: src.WithRecordedMarks(t.Schema.MarkSensitive(val)), Private: src.Private, Status: src.Status,
		Dependencies: src.Dependencies, CreateBeforeDestroy: src.CreateBeforeDestroy, Identity: src.Identity,
	}, ds
}
