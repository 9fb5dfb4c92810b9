package lifecycle

import (
	"context"
	"fmt"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/objchange"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/zclconf/go-cty/cty"
)

// Planned is a provider's checked plan for one object.
type Planned struct {
	// Value is the planned new value, possibly with unknowns, carrying the
	// configuration's and the schema's sensitive marks.
	Value cty.Value
	// RequiresReplace are the paths the provider says force replacement.
	RequiresReplace []cty.Path
	// Private is the provider's planned private data.
	Private []byte
	// LegacyTypeSystem excuses the provider from the plan and apply
	// checks, as Terraform excuses SDKv2 providers.
	LegacyTypeSystem bool

	// What Apply needs, kept so no value is walked for marks twice, and
	// the identity it sends (the planned one, or the prior's).
	prior, config, planned split
	identity               cty.Value
}

// Plan computes the proposed new state from prior and config (both with
// their marks; prior null for a create), calls PlanResourceChange and
// checks the answer against the protocol's rules ("Provider produced
// invalid plan").
func Plan(ctx context.Context, t *Target, prior cty.Value, priorPrivate []byte, config cty.Value) (*Planned, diags.Diagnostics) {
	return plan(ctx, t, splitMarks(prior), priorPrivate, splitMarks(config))
}

// FinalPlan plans again at apply time, with the configuration as known now,
// and also checks the answer keeps every value the saved plan knew
// ("Provider produced inconsistent final plan"). Its result is what Apply
// takes.
func FinalPlan(ctx context.Context, t *Target, prior cty.Value, priorPrivate []byte, config, saved cty.Value) (*Planned, diags.Diagnostics) {
	cfg := splitMarks(config)
	// Values learned during apply were never seen by ValidateConfig; one
	// that no state could hold (an infinite number) must not reach the
	// provider, which would create an object Cairn could not record.
	if d := lang.UnstorableNumber(cfg.u); d != nil {
		return nil, t.located(diags.Diagnostics{*d}, cfg)
	}
	p, ds := plan(ctx, t, splitMarks(prior), priorPrivate, cfg)
	if ds.HasErrors() || p.LegacyTypeSystem {
		return p, ds
	}
	savedU, savedMarks := marks.Unmark(saved)
	redact := append(redactPaths(p.prior, p.config), marks.Paths(savedMarks)...)
	for _, err := range objchange.AssertObjectCompatibleUnmarked(t.Schema, savedU, p.planned.u, redact) {
		ds = ds.Append(t.contractError("Provider produced inconsistent final plan",
			fmt.Sprintf("when expanding the plan to include new values learned so far during apply, it produced an invalid new value for %s", err)))
	}
	if ds.HasErrors() {
		return nil, ds
	}
	return p, ds
}

func plan(ctx context.Context, t *Target, prior split, priorPrivate []byte, config split) (*Planned, diags.Diagnostics) {
	var priorID cty.Value
	if !prior.u.IsNull() {
		var ds diags.Diagnostics
		if priorID, ds = decodeIdentity(ctx, t, t.Identity); ds.HasErrors() {
			return nil, ds
		}
	}
	resp := t.Provider.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
		TypeName: t.typeName(), PriorState: prior.u, ProposedNewState: objchange.ProposedNew(t.Schema, prior.u, config.u),
		Config: config.u, PriorPrivate: priorPrivate, ProviderMeta: t.meta(), PriorIdentity: priorID,
	})
	ds := t.located(resp.Diagnostics, prior, config)
	if ds.HasErrors() {
		return nil, ds
	}
	if wds := t.writeOnlyKept(resp.PlannedState); wds.HasErrors() {
		return nil, ds.Append(wds)
	}
	// The configuration's marks, less the ephemeral mark of write-only
	// attributes: those are null in the plan (checked above).
	planned := withMarks(t.Schema, resp.PlannedState, t.Schema.WithoutWriteOnlyEphemeral(config.marks), t.ProviderConfig)
	p := &Planned{
		Value: planned.v, RequiresReplace: resp.RequiresReplace, Private: resp.PlannedPrivate, LegacyTypeSystem: resp.LegacyTypeSystem,
		prior: prior, config: config, planned: planned, identity: priorID,
	}
	if resp.PlannedIdentity != cty.NilVal && !resp.PlannedIdentity.IsNull() && resp.PlannedIdentity.IsWhollyKnown() {
		p.identity = resp.PlannedIdentity
	}
	if resp.LegacyTypeSystem {
		return p, ds
	}
	errs := objchange.AssertPlanValidUnmarked(t.Schema, prior.u, config.u, planned.u, redactPaths(prior, config))
	for _, err := range errs {
		ds = ds.Append(t.contractError("Provider produced invalid plan", fmt.Sprintf("planned an invalid value for %s", err)))
	}
	if len(errs) > 0 {
		return nil, ds
	}
	return p, ds
}
