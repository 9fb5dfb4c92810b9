package render

import "github.com/cairn-iac/cairn/internal/plans"

// Sensitive and unknown values are checked before anything else at every
// node: a sensitive value is never shown, and a value known only after apply
// has nothing to compare with.

// sensitiveDiff wraps the diff of a change with a sensitive side, or returns
// nil when neither side is sensitive. inner computes the diff the change
// would have without marks; it decides the action. kind is kindSensitive,
// or kindSensitiveBlock for a whole block.
func sensitiveDiff(c change, kind diffKind, replace bool, inner func(change) *diff) *diff {
	if !c.beforeSensitive && !c.afterSensitive {
		return nil
	}
	in := inner(c.withoutSensitivity())
	act := in.action
	// Becoming sensitive (or ceasing to be) is a change even when the
	// value is not, unless there is no value at all.
	nothing := c.beforeNil() && !c.beforeExplicit && c.afterNil() && !c.afterExplicit
	if act == plans.NoOp && c.beforeSensitive != c.afterSensitive && !nothing {
		act = plans.Update
	}
	return &diff{kind: kind, action: act, replace: replace, inner: in,
		beforeSensitive: c.beforeSensitive, afterSensitive: c.afterSensitive}
}

// unknownDiff returns the diff of a change whose after value is unknown, or
// nil when it is known. old computes the diff of the old value as if it were
// deleted; attrs says whether the old value's attributes should read as
// unknown too (objects and blocks) rather than deleted.
func unknownDiff(c change, attrs bool, replace bool, old func(change) *diff) *diff {
	if !c.unknown {
		return nil
	}
	c.afterExplicit = true
	d := &diff{kind: kindUnknown, action: c.action(), replace: replace}
	if !c.beforeNil() {
		prior := c.asDelete()
		prior.attrsUnknown = attrs
		d.inner = old(prior)
	}
	return d
}
