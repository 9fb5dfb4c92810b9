package lifecycle

import (
	"bytes"
	"context"
	"fmt"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/objchange"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// Applied is the object an apply produced.
type Applied struct {
	// Value is the new object with the planned value's marks; null when
	// the provider returned no object.
	Value   cty.Value
	Private []byte
	// Pending reports an object whose create the remote system accepted
	// but whose outcome the provider could not learn (it lost the API, or
	// was stopped, while waiting): Value is the planned object with null
	// where values were unknown, and Private what the provider needs to
	// resume following the create. It is kept as it is, not tainted: the
	// next refresh finds out what became of it.
	Pending bool
	// Identity is the new object's resource identity; zero when none.
	Identity states.Identity
	u        cty.Value
	marks    []cty.PathValueMarks
}

// Unmarked returns the new object without marks, and its marks, for a
// caller that stores it without walking it again.
func (a *Applied) Unmarked() (cty.Value, []cty.PathValueMarks) { return a.u, a.marks }

// Apply carries out a plan FinalPlan made (ApplyResourceChange) and checks
// the new object keeps every value the plan knew and has nothing unknown
// left ("Provider produced inconsistent result after apply"). A provider
// error may still come with a partial object, which is returned with the
// error so it can be kept (tainted) rather than lost.
func Apply(ctx context.Context, t *Target, p *Planned) (*Applied, diags.Diagnostics) {
	return ApplyRecorded(ctx, t, p, nil)
}

// Accepted records, durably, the pending object of a create the remote
// system accepted (see providers.CreateRecorder), returning only once it
// is recorded.
type Accepted func(pending *Applied) error

// ApplyRecorded is Apply for a caller that records accepted creates: when
// the provider reports that the create of a new object was accepted,
// accepted records it as pending before the provider waits for the
// outcome. If the call then fails and the provider returns that same
// pending object (the outcome is unknown), the result is marked Pending.
func ApplyRecorded(ctx context.Context, t *Target, p *Planned, accepted Accepted) (*Applied, diags.Diagnostics) {
	var reported []byte
	if accepted != nil && p.prior.u.IsNull() {
		ctx = providers.WithCreateRecorder(ctx, func(private []byte) error {
			reported = bytes.Clone(private)
			return accepted(pendingObject(t, p, reported))
		})
	}
	out, ds := applyChange(ctx, t, p)
	out.Pending = reported != nil && ds.HasErrors() && !out.u.IsNull() && bytes.Equal(out.Private, reported)
	return out, ds
}

// pendingObject is the object a create leaves while its outcome is not
// known: the planned value, with null where it is unknown (nothing else
// can be stored), and the provider's private data.
func pendingObject(t *Target, p *Planned, private []byte) *Applied {
	u, _ := cty.Transform(p.planned.u, func(_ cty.Path, v cty.Value) (cty.Value, error) {
		if !v.IsKnown() {
			return cty.NullVal(v.Type()), nil
		}
		return v, nil
	})
	nv := withMarks(t.Schema, u, t.Schema.OutsideCopies(p.planned.marks), t.ProviderConfig)
	return &Applied{Value: nv.v, Private: private, Pending: true, u: u, marks: nv.marks}
}

func applyChange(ctx context.Context, t *Target, p *Planned) (*Applied, diags.Diagnostics) {
	resp := t.Provider.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
		TypeName: t.typeName(), PriorState: p.prior.u, PlannedState: p.planned.u, Config: p.config.u,
		PlannedPrivate: p.Private, ProviderMeta: t.meta(), PlannedIdentity: p.identity,
	})
	ds := t.located(resp.Diagnostics, p.prior, p.config, p.planned)
	id, ids := appliedIdentity(ctx, t, p, resp.NewIdentity)
	ds = ds.Append(ids)
	null := t.null()
	newU := resp.NewState
	if newU == cty.NilVal || newU.IsNull() {
		return &Applied{Value: null, u: null}, ds
	}
	if errs := newU.Type().TestConformance(t.Schema.ImpliedType()); len(errs) > 0 {
		return &Applied{Value: null, u: null}, ds.Append(t.contractError("Provider produced invalid object",
			fmt.Sprintf("the new object does not conform to the schema: %s", errs[0])))
	}
	// A write-only value the provider kept is reported and dropped: the
	// object exists and is recorded, without the secret.
	if wds := t.writeOnlyKept(newU); wds.HasErrors() {
		ds, newU = ds.Append(wds), t.Schema.NullWriteOnly(newU)
	}
	// The new object has the planned value's marks; its copies' are
	// worked out on it (a tags_all unknown in the plan, or in another
	// order now).
	nv := withMarks(t.Schema, newU, t.Schema.OutsideCopies(p.planned.marks), t.ProviderConfig)
	out := &Applied{Value: nv.v, Private: resp.Private, Identity: id, u: newU, marks: nv.marks}
	if ds.HasErrors() || resp.LegacyTypeSystem {
		return out, ds
	}
	for _, err := range objchange.AssertObjectCompatibleUnmarked(t.Schema, p.planned.u, newU, redactPaths(p.prior, p.config)) {
		ds = ds.Append(t.contractError("Provider produced inconsistent result after apply",
			fmt.Sprintf("it produced an unexpected new value: %s", err)))
	}
	for _, err := range objchange.AssertWhollyKnown(newU) {
		ds = ds.Append(t.contractError("Provider produced inconsistent result after apply",
			fmt.Sprintf("the new object still has an unknown value at %s", err)))
	}
	return out, ds
}

// PlanDestroy asks a provider that declared the PlanDestroy capability to
// plan deleting prior: PlanResourceChange with a null configuration and
// proposed state, whose planned state must be null. It returns the planned
// private data, which Delete then sends.
func PlanDestroy(ctx context.Context, t *Target, prior cty.Value, priorPrivate []byte) ([]byte, diags.Diagnostics) {
	null, ps := t.null(), splitMarks(prior)
	resp := t.Provider.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
		TypeName: t.typeName(), PriorState: ps.u, ProposedNewState: null, Config: null,
		PriorPrivate: priorPrivate, ProviderMeta: t.meta(),
	})
	ds := t.named(resp.Diagnostics, ps)
	if ds.HasErrors() {
		return nil, ds
	}
	if ps := resp.PlannedState; ps != cty.NilVal && !ps.IsNull() {
		return nil, ds.Append(t.contractError("Provider produced invalid plan",
			"planned an object to remain when it was asked to plan its deletion"))
	}
	return resp.PlannedPrivate, ds
}

// Delete deletes prior: ApplyResourceChange with a null planned state and
// configuration, which the provider must answer with a null object.
func Delete(ctx context.Context, t *Target, prior cty.Value, private []byte) diags.Diagnostics {
	null, ps := t.null(), splitMarks(prior)
	resp := t.Provider.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
		TypeName: t.typeName(), PriorState: ps.u, PlannedState: null, Config: null,
		PlannedPrivate: private, ProviderMeta: t.meta(),
	})
	ds := t.named(resp.Diagnostics, ps)
	if !ds.HasErrors() && resp.NewState != cty.NilVal && !resp.NewState.IsNull() {
		ds = ds.Append(t.contractError("Provider produced inconsistent result after apply",
			"deleting the object returned a non-null new state"))
	}
	return ds
}
