package render

import (
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/zclconf/go-cty/cty"
)

// diffBlock computes the diff of a resource body or nested block.
func diffBlock(c change, b *configschema.Block) *diff {
	if d := sensitiveDiff(c, kindSensitiveBlock, c.replace.matches(), func(in change) *diff { return diffBlock(in, b) }); d != nil {
		return d
	}
	if d := unknownDiff(c, true, c.replace.matches(), func(old change) *diff { return diffBlock(old, b) }); d != nil {
		return d
	}
	d := &diff{kind: kindBlock, action: c.iterAction(), replace: c.replace.matches()}
	var writeOnly []string
	for name, a := range b.Attributes {
		if a.WriteOnly {
			writeOnly = append(writeOnly, name)
			continue
		}
		child := c.attr(name)
		if !child.relevant.partial() {
			child = child.asNoOp()
		}
		// Legacy SDK providers cannot store null strings and store "";
		// Terraform shows an empty string in a block as null.
		child.before = emptyStringAsNull(child.before)
		child.after = emptyStringAsNull(child.after)
		cd := diffAttr(child, a)
		if cd.action == plans.NoOp && child.bothNil() {
			continue
		}
		d.entries = append(d.entries, entry{name, cd})
		d.action = combine(d.action, cd.action)
	}
	d.entries = append(d.entries, writeOnlyEntries(c, d.action, writeOnly)...)
	sortEntries(d.entries)
	for name, nb := range b.BlockTypes {
		if g, act, ok := diffBlockGroup(c.blockType(name), name, nb); ok {
			d.blocks = append(d.blocks, g)
			d.action = combine(d.action, act)
		}
	}
	sortGroups(d.blocks)
	return d
}

// diffBlockGroup computes the diffs of every block of one nested block
// type; ok is false when there is nothing to show (no blocks either side).
func diffBlockGroup(c change, name string, nb *configschema.NestedBlock) (g blockGroup, act plans.Action, ok bool) {
	if !c.relevant.partial() {
		c = c.asNoOp()
	}
	g = blockGroup{name: name, replace: c.replace.matches(),
		beforeSensitive: c.beforeSensitive, afterSensitive: c.afterSensitive}
	act = c.iterAction()
	add := func(key string, d *diff) {
		g.items = append(g.items, entry{key, d})
		act = combine(act, d.action)
	}
	switch nb.Nesting {
	case configschema.NestingSingle, configschema.NestingGroup:
		d := diffBlock(c, &nb.Block)
		g.items = []entry{{"", d}}
		act = d.action
	case configschema.NestingList:
		before, after := elemsOf(c.before), elemsOf(c.after)
		for i := 0; i < len(before) || i < len(after); i++ {
			child := c.elem(before, after, i, i)
			if !child.relevant.partial() {
				child = child.asNoOp()
			}
			add("", diffBlock(child, &nb.Block))
		}
	case configschema.NestingSet:
		eachSetElem(c, func(child change) { add("", diffBlock(child, &nb.Block)) })
	case configschema.NestingMap:
		before, after := entriesOf(c.before), entriesOf(c.after)
		act = mapAction(before, after)
		g.keyed = true
		for _, k := range unionKeys(before, after) {
			child := c.key(k, before, after)
			if !child.relevant.partial() {
				child = child.asNoOp()
			}
			add(k, diffBlock(child, &nb.Block))
		}
		sortEntries(g.items)
	}
	if act == plans.NoOp && c.bothNil() {
		return g, act, false
	}
	return g, act, true
}

// emptyStringAsNull turns a known "" into an absent value.
func emptyStringAsNull(v cty.Value) cty.Value {
	if v != cty.NilVal && v.IsKnown() && !v.IsNull() && v.Type() == cty.String && v.AsString() == "" {
		return cty.NilVal
	}
	return v
}

// diffAttr computes the diff of one attribute of a block or nested object.
func diffAttr(c change, a *configschema.Attribute) *diff {
	if a.NestedType != nil {
		return diffNested(c, a.NestedType)
	}
	return diffType(c, a.Type)
}

// diffNested computes the diff of a nested attribute (protocol v6): an
// object, or a list, set or map of objects, each compared attribute by
// attribute against the nested schema.
func diffNested(c change, o *configschema.Object) *diff {
	if d := sensitiveDiff(c, kindSensitive, c.replace.matches(), func(in change) *diff { return diffNested(in, o) }); d != nil {
		return d
	}
	single := o.Nesting == configschema.NestingSingle || o.Nesting == configschema.NestingGroup
	if d := unknownDiff(c, single, c.replace.matches(), func(old change) *diff { return diffNested(old, o) }); d != nil {
		return d
	}
	elem := &configschema.Object{Attributes: o.Attributes, Nesting: configschema.NestingSingle}
	switch o.Nesting {
	case configschema.NestingList:
		before, after := elemsOf(c.before), elemsOf(c.after)
		d := &diff{kind: kindList, nested: true, action: c.iterAction(), replace: c.replace.matches()}
		for i := 0; i < len(before) || i < len(after); i++ {
			child := c.elem(before, after, i, i)
			if !child.relevant.partial() {
				child = child.asNoOp()
			}
			cd := diffNested(child, elem)
			d.elems = append(d.elems, cd)
			d.action = combine(d.action, cd.action)
		}
		return d
	case configschema.NestingSet:
		d := &diff{kind: kindSet, nested: true, action: c.iterAction(), replace: c.replace.matches()}
		eachSetElem(c, func(child change) {
			cd := diffNested(child, elem)
			d.elems = append(d.elems, cd)
			d.action = combine(d.action, cd.action)
		})
		return d
	case configschema.NestingMap:
		before, after := entriesOf(c.before), entriesOf(c.after)
		d := &diff{kind: kindMap, nested: true, action: mapAction(before, after), replace: c.replace.matches()}
		for _, k := range unionKeys(before, after) {
			child := c.key(k, before, after)
			if !child.relevant.partial() {
				child = child.asNoOp()
			}
			cd := diffNested(child, elem)
			d.entries = append(d.entries, entry{k, cd})
			d.action = combine(d.action, cd.action)
		}
		sortEntries(d.entries)
		return d
	}
	d := &diff{kind: kindObject, nested: true, action: c.iterAction(), replace: c.replace.matches()}
	var writeOnly []string
	for name, a := range o.Attributes {
		if a.WriteOnly {
			writeOnly = append(writeOnly, name)
			continue
		}
		child := c.attr(name)
		if !child.relevant.partial() {
			child = child.asNoOp()
		}
		cd := diffAttr(child, a)
		if cd.action == plans.NoOp && child.bothNil() {
			continue
		}
		d.entries = append(d.entries, entry{name, cd})
		d.action = combine(d.action, cd.action)
	}
	d.entries = append(d.entries, writeOnlyEntries(c, d.action, writeOnly)...)
	sortEntries(d.entries)
	return d
}

// writeOnlyEntries shows the write-only attributes of a block whose action
// (decided by its other attributes) is not a no-op, as OpenTofu does:
// "(write-only attribute)" with that action, since the plan holds no value
// to compare. One the provider says forces replacement is shown even
// then, as an update.
func writeOnlyEntries(c change, act plans.Action, names []string) []entry {
	var out []entry
	for _, name := range names {
		replace := c.attr(name).replace.matches()
		a := act
		if a == plans.NoOp && replace {
			a = plans.Update
		}
		if a == plans.NoOp {
			continue
		}
		out = append(out, entry{name, &diff{kind: kindWriteOnly, action: a, replace: replace}})
	}
	return out
}
