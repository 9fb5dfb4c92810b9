package render

import (
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/zclconf/go-cty/cty"
)

// diffJSON computes the diff of a value whose type the schema does not fix:
// a dynamically typed attribute, an output value, or the decoded content of
// a JSON string. Such values are compared as JSON: maps read as objects,
// sets and tuples as lists, and a value whose JSON kind changes is shown as
// the old value followed by the new one. Nothing below this point is
// marked as forcing replacement, as in Terraform.
func diffJSON(c change) *diff {
	if d := sensitiveDiff(c, kindSensitive, false, diffJSON); d != nil {
		return d
	}
	if c.unknown {
		if c.beforeNil() {
			return &diff{kind: kindUnknown, action: plans.Create}
		}
		return &diff{kind: kindUnknown, action: plans.Update, inner: diffJSON(c.asDelete())}
	}
	bk, ak := kindOf(c.before), kindOf(c.after)
	deleted := ak == jsonNull && !c.afterExplicit
	created := bk == jsonNull && !c.beforeExplicit
	if bk == ak || created || deleted {
		k := bk
		if k == jsonNull {
			k = ak
		}
		return diffJSONAs(c, k)
	}
	return &diff{kind: kindTypeChange, action: plans.Update,
		inner: diffJSONAs(c.asDelete(), bk), other: diffJSONAs(c.asCreate(), ak)}
}

// diffJSONAs diffs a change whose sides are both of JSON kind k (or null).
func diffJSONAs(c change, k jsonKind) *diff {
	switch k {
	case jsonObject:
		return diffJSONObject(c)
	case jsonArray:
		return diffJSONArray(c)
	}
	ty := cty.NilType
	switch k {
	case jsonBool:
		ty = cty.Bool
	case jsonNumber:
		ty = cty.Number
	case jsonString:
		ty = cty.String
	}
	bMissing := c.beforeNil() && !c.beforeExplicit
	aMissing := c.afterNil() && !c.afterExplicit
	act := plans.Update
	switch {
	case bMissing && !aMissing:
		act = plans.Create
	case !bMissing && aMissing:
		act = plans.Delete
	case jsonEqual(c.before, c.after):
		act = plans.NoOp
	}
	return &diff{kind: kindPrimitive, action: act, ty: ty, before: c.before, after: c.after}
}

func diffJSONObject(c change) *diff {
	before, after := entriesOf(c.before), entriesOf(c.after)
	d := &diff{kind: kindObject, action: mapAction(before, after)}
	for _, k := range unionKeys(before, after) {
		child := c.key(k, before, after)
		if !child.relevant.partial() {
			child = child.asNoOp()
		}
		cd := diffJSON(child)
		d.entries = append(d.entries, entry{k, cd})
		d.action = combine(d.action, cd.action)
	}
	sortEntries(d.entries)
	return d
}

func diffJSONArray(c change) *diff {
	before, after := elemsOf(c.before), elemsOf(c.after)
	d := &diff{kind: kindList, action: seqAction(before, after)}
	isObject := func(v cty.Value) bool { return kindOf(v) == jsonObject }
	walkEdit(before, after, jsonEqual, isObject, func(b, a int) {
		cd := diffJSON(c.elem(before, after, b, a))
		d.elems = append(d.elems, cd)
		d.action = combine(d.action, cd.action)
	})
	return d
}
