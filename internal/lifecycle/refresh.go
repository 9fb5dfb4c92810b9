package lifecycle

import (
	"bytes"
	"context"
	"fmt"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/objchange"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// Refresh reads the remote object behind obj (ReadResource) and checks the
// answer conforms to the schema and is wholly known. It returns nil when
// the object no longer exists, obj itself when the provider reported it
// unchanged (value and private data), and otherwise a new object with
// obj's marks, the schema's and its copies'.
func Refresh(ctx context.Context, t *Target, obj *states.Object) (*states.Object, diags.Diagnostics) {
	priorU, priorMarks := marks.Unmark(obj.Value)
	curID, ds := decodeIdentity(ctx, t, obj.Identity)
	if ds.HasErrors() {
		return obj, ds
	}
	resp := t.Provider.ReadResource(ctx, providers.ReadResourceRequest{
		TypeName: t.typeName(), PriorState: priorU, Private: obj.Private, ProviderMeta: t.meta(), CurrentIdentity: curID,
	})
	ds = ds.Append(t.named(resp.Diagnostics, split{v: obj.Value, u: priorU, marks: priorMarks}))
	if ds.HasErrors() {
		return obj, ds
	}
	newVal := resp.NewState
	if newVal == cty.NilVal || newVal.IsNull() {
		return nil, ds
	}
	if errs := newVal.Type().TestConformance(t.Schema.ImpliedType()); len(errs) > 0 {
		return obj, ds.Append(t.contractError("Provider produced invalid object",
			fmt.Sprintf("reading the object produced a value that does not conform to the schema: %s", errs[0])))
	}
	if errs := objchange.AssertWhollyKnown(newVal); len(errs) > 0 {
		return obj, ds.Append(t.contractError("Provider produced invalid object",
			fmt.Sprintf("reading the object produced an unknown value at %s", errs[0])))
	}
	id, ids := readIdentity(ctx, t, obj.Identity, curID, resp.NewIdentity)
	if ds = ds.Append(ids); ids.HasErrors() {
		return obj, ds
	}
	if newVal.RawEquals(priorU) && bytes.Equal(resp.Private, obj.Private) && id.Equal(obj.Identity) {
		return obj, ds
	}
	return &states.Object{
		Value: withMarks(t.Schema, newVal, t.Schema.OutsideCopies(priorMarks), t.ProviderConfig).v, Private: resp.Private, Status: obj.Status,
		Dependencies: obj.Dependencies, CreateBeforeDestroy: obj.CreateBeforeDestroy, Identity: id,
	}, ds
}
