package planning

import (
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/zclconf/go-cty/cty"
)

// actionInput is everything decideAction weighs for an existing object.
type actionInput struct {
	prior, planned  cty.Value
	requiresReplace []cty.Path
	// writeOnlyReplace are the RequiresReplace paths of write-only
	// attributes: null both sides, so no change shows, yet a provider
	// that lists one asks for a replacement (OpenTofu replaces).
	writeOnlyReplace    []cty.Path
	tainted             bool
	forced              bool
	triggered           bool
	createBeforeDestroy bool
}

// decideAction chooses the action for an instance that has a prior object,
// in Terraform's order of precedence: tainted, then -replace, then a
// provider's RequiresReplace paths that actually change, then
// replace_triggered_by; otherwise update if anything changed, else no-op.
// It also returns the reason and the replace paths that mattered.
func decideAction(in actionInput) (plans.Action, plans.ActionReason, []cty.Path) {
	replace := plans.DeleteThenCreate
	if in.createBeforeDestroy {
		replace = plans.CreateThenDelete
	}
	changed := append(changedPaths(in.requiresReplace, in.prior, in.planned), in.writeOnlyReplace...)
	switch {
	case in.tainted:
		return replace, plans.ReasonReplaceBecauseTainted, changed
	case in.forced:
		return replace, plans.ReasonReplaceByRequest, changed
	case len(changed) > 0:
		return replace, plans.ReasonReplaceBecauseCannotUpdate, changed
	case in.triggered:
		return replace, plans.ReasonReplaceByTriggers, nil
	case valuesEqual(in.prior, in.planned):
		return plans.NoOp, plans.ReasonNone, nil
	}
	return plans.Update, plans.ReasonNone, nil
}

// changedPaths keeps the paths whose value differs between prior and
// planned (an unknown planned value counts as different): a provider may
// list a RequiresReplace path that is not actually changing.
func changedPaths(paths []cty.Path, prior, planned cty.Value) []cty.Path {
	var out []cty.Path
	for _, p := range paths {
		if !valuesEqual(valueAt(prior, p), valueAt(planned, p)) {
			out = append(out, p)
		}
	}
	return out
}

// valueAt returns the value at path, or a null of unknown type when the
// path does not lead anywhere (a null parent, a missing key).
func valueAt(v cty.Value, path cty.Path) cty.Value {
	got, err := path.Apply(v)
	if err != nil {
		return cty.NullVal(cty.DynamicPseudoType)
	}
	return got
}

// valuesEqual reports whether two values are known and equal, marks
// included; null equals null whatever the type.
func valuesEqual(a, b cty.Value) bool {
	if a.IsNull() && b.IsNull() {
		return true
	}
	if a.RawEquals(b) {
		// The common case (nothing changed) costs one walk more: raw
		// equality holds for unknowns too, which are never equal.
		return a.IsWhollyKnown()
	}
	if !a.IsWhollyKnown() || !b.IsWhollyKnown() {
		return false
	}
	au, aMarks := marks.Unmark(a)
	bu, bMarks := marks.Unmark(b)
	if len(aMarks) != len(bMarks) {
		return false
	}
	eq := au.Equals(bu)
	return eq.IsKnown() && eq.True()
}

// writeOnlyPaths keeps the paths that name write-only attributes.
func writeOnlyPaths(schema *configschema.Block, paths []cty.Path) []cty.Path {
	if len(paths) == 0 || !schema.HasWriteOnly() {
		return nil
	}
	var out []cty.Path
	for _, p := range paths {
		if a := schema.AttributeByPath(p); a != nil && a.WriteOnly {
			out = append(out, p)
		}
	}
	return out
}
