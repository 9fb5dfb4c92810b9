package render

import (
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/zclconf/go-cty/cty"
)

// diffType computes the diff of a value of a schema type (an attribute
// without nested attributes, or an element of one).
func diffType(c change, ty cty.Type) *diff {
	if d := sensitiveDiff(c, kindSensitive, c.replace.matches(), func(in change) *diff { return diffType(in, ty) }); d != nil {
		return d
	}
	if d := unknownDiff(c, false, c.replace.matches(), func(old change) *diff { return diffType(old, ty) }); d != nil {
		return d
	}
	switch {
	case ty == cty.NilType || ty == cty.DynamicPseudoType:
		return diffJSON(c)
	case ty.IsPrimitiveType():
		return &diff{kind: kindPrimitive, action: c.action(), replace: c.replace.matches(), ty: ty, before: c.before, after: c.after}
	case ty.IsObjectType():
		return diffObjectType(c, ty.AttributeTypes())
	case ty.IsMapType():
		return diffMapType(c, ty.ElementType())
	case ty.IsListType():
		return diffListType(c, ty.ElementType())
	case ty.IsTupleType():
		return diffTupleType(c, ty.TupleElementTypes())
	case ty.IsSetType():
		return diffSetType(c, ty.ElementType())
	}
	// Capsule types never appear in schemas; show such a value as JSON.
	return diffJSON(c)
}

// diffObjectType diffs an object attribute: attributes null on both sides
// are left out altogether.
func diffObjectType(c change, attrs map[string]cty.Type) *diff {
	d := &diff{kind: kindObject, action: c.iterAction(), replace: c.replace.matches()}
	for name, ty := range attrs {
		child := c.attr(name)
		if !child.relevant.partial() {
			child = child.asNoOp()
		}
		cd := diffType(child, ty)
		if cd.action == plans.NoOp && child.bothNil() {
			continue
		}
		d.entries = append(d.entries, entry{name, cd})
		d.action = combine(d.action, cd.action)
	}
	sortEntries(d.entries)
	return d
}

// diffMapType diffs a map attribute, element by key.
func diffMapType(c change, elem cty.Type) *diff {
	before, after := entriesOf(c.before), entriesOf(c.after)
	d := &diff{kind: kindMap, action: mapAction(before, after), replace: c.replace.matches()}
	for _, k := range unionKeys(before, after) {
		child := c.key(k, before, after)
		if !child.relevant.partial() {
			child = child.asNoOp()
		}
		cd := diffType(child, elem)
		d.entries = append(d.entries, entry{k, cd})
		d.action = combine(d.action, cd.action)
	}
	sortEntries(d.entries)
	return d
}

// mapAction is the starting action of a map or JSON object: created or
// deleted as a whole, else whatever its elements say.
func mapAction(before, after map[string]cty.Value) plans.Action {
	switch {
	case before != nil && after == nil:
		return plans.Delete
	case before == nil && after != nil:
		return plans.Create
	}
	return plans.NoOp
}

// seqAction is mapAction for lists.
func seqAction(before, after []cty.Value) plans.Action {
	switch {
	case before != nil && after == nil:
		return plans.Delete
	case before == nil && after != nil:
		return plans.Create
	}
	return plans.NoOp
}

// diffListType diffs a list attribute as the edit from the old list to the
// new one.
func diffListType(c change, elem cty.Type) *diff {
	before, after := elemsOf(c.before), elemsOf(c.after)
	d := &diff{kind: kindList, action: seqAction(before, after), replace: c.replace.matches()}
	isObject := func(cty.Value) bool { return elem.IsObjectType() }
	walkEdit(before, after, jsonEqual, isObject, func(b, a int) {
		child := c.elem(before, after, b, a)
		child.relevant = everything
		cd := diffType(child, elem)
		d.elems = append(d.elems, cd)
		d.action = combine(d.action, cd.action)
	})
	return d
}

// diffTupleType diffs a tuple attribute element by element.
func diffTupleType(c change, elems []cty.Type) *diff {
	before, after := elemsOf(c.before), elemsOf(c.after)
	d := &diff{kind: kindList, action: c.iterAction(), replace: c.replace.matches()}
	for i, ty := range elems {
		child := c.elem(before, after, i, i)
		if !child.relevant.partial() {
			child = child.asNoOp()
		}
		cd := diffType(child, ty)
		d.elems = append(d.elems, cd)
		d.action = combine(d.action, cd.action)
	}
	return d
}

// diffSetType diffs a set attribute: equal elements pair up, the others
// are deleted or added.
func diffSetType(c change, elem cty.Type) *diff {
	d := &diff{kind: kindSet, action: c.iterAction(), replace: c.replace.matches()}
	eachSetElem(c, func(child change) {
		cd := diffType(child, elem)
		d.elems = append(d.elems, cd)
		d.action = combine(d.action, cd.action)
	})
	return d
}

// eachSetElem pairs the elements of two sets: each old element with an
// equal new one (same value, same sensitivity, known), and calls fn for
// every pair, then for every old element without a partner (deleted) and
// every new one without a partner (added), in that order.
func eachSetElem(c change, fn func(change)) {
	before, after := elemsOf(c.before), elemsOf(c.after)
	partner := make([]int, len(before))
	taken := make([]bool, len(after))
	for b := range before {
		partner[b] = -1
		for a := range after {
			if taken[a] {
				continue
			}
			child := c.elem(before, after, b, a)
			if jsonEqual(child.before, child.after) && child.beforeSensitive == child.afterSensitive && !child.unknown {
				partner[b] = a
				taken[a] = true
				break
			}
		}
	}
	for b := range before {
		a := partner[b]
		if a < 0 {
			a = len(after)
		}
		child := c.elem(before, after, b, a)
		child.relevant = everything
		fn(child)
	}
	for a := range after {
		if taken[a] {
			continue
		}
		child := c.elem(before, after, len(before), a)
		child.relevant = everything
		fn(child)
	}
}
