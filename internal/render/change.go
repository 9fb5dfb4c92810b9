package render

import (
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/zclconf/go-cty/cty"
)

// change is what the differ knows about one node of a value: its value
// before and after, seen the way Terraform's renderer sees values (as JSON,
// with separate masks for unknown and sensitive parts).
//
// Both values are shallowly unmarked: the sensitive mark of this node is in
// the flags, while nested values keep their own marks. cty.NilVal means the
// value is absent: an index past the end of a list, a key not in a map.
// An unknown after value counts as absent too, and unknown says why.
type change struct {
	before, after cty.Value
	// beforeExplicit and afterExplicit say the value is present in its
	// parent even when null: a null list element rather than a missing one.
	// Terraform treats object attributes as never explicit, which is why a
	// null attribute becoming set reads as "+" and not "null ->".
	beforeExplicit, afterExplicit   bool
	beforeSensitive, afterSensitive bool
	unknown                         bool
	// attrsUnknown marks every attribute below this node unknown: set while
	// showing the old value of an object that becomes unknown, so each of
	// its attributes reads "old -> (known after apply)".
	attrsUnknown bool
	replace      pathSet
	relevant     pathSet
}

// newChange builds the change of a node from its (possibly marked) values.
func newChange(before, after cty.Value, beforeExplicit, afterExplicit bool, replace, relevant pathSet) change {
	c := change{beforeExplicit: beforeExplicit, afterExplicit: afterExplicit, replace: replace, relevant: relevant}
	c.before, c.beforeSensitive = unmarkSensitive(before)
	c.after, c.afterSensitive = unmarkSensitive(after)
	c.unknown = c.after != cty.NilVal && !c.after.IsKnown()
	return c
}

// unmarkSensitive removes the marks of v itself and reports whether they
// included the sensitive mark.
func unmarkSensitive(v cty.Value) (cty.Value, bool) {
	if v == cty.NilVal || !v.IsMarked() {
		return v, false
	}
	v, marks := v.Unmark()
	_, sens := marks[configschema.SensitiveMark]
	return v, sens
}

// isNil reports whether v reads as JSON null: absent, null or unknown.
func isNil(v cty.Value) bool {
	return v == cty.NilVal || !v.IsKnown() || v.IsNull()
}

func (c change) beforeNil() bool { return isNil(c.before) }
func (c change) afterNil() bool  { return isNil(c.after) }

// bothNil reports whether there is nothing to show before or after.
func (c change) bothNil() bool { return c.beforeNil() && c.afterNil() }

// withoutSensitivity is the change as it would be if nothing in it were
// sensitive: the differ computes the action of a sensitive value from it.
func (c change) withoutSensitivity() change {
	c.beforeSensitive, c.afterSensitive = false, false
	if c.before != cty.NilVal {
		c.before, _ = c.before.UnmarkDeep()
	}
	if c.after != cty.NilVal {
		c.after, _ = c.after.UnmarkDeep()
	}
	return c
}

// asNoOp is the change with the after side replaced by the before side:
// used for attributes that drift rendering must not show as changed.
func (c change) asNoOp() change {
	c.after, c.afterExplicit, c.afterSensitive = c.before, c.beforeExplicit, c.beforeSensitive
	c.unknown, c.attrsUnknown = false, false
	return c
}

// asDelete is the change with no after side.
func (c change) asDelete() change {
	c.after, c.afterExplicit, c.afterSensitive = cty.NilVal, false, false
	c.unknown, c.attrsUnknown = false, false
	return c
}

// asCreate is the change with no before side.
func (c change) asCreate() change {
	c.before, c.beforeExplicit, c.beforeSensitive = cty.NilVal, false, false
	return c
}

// action is the action of a leaf: created, deleted, unchanged or updated.
func (c change) action() plans.Action {
	bn, an := c.beforeNil(), c.afterNil()
	switch {
	case bn && !c.beforeExplicit && (!an || c.afterExplicit):
		return plans.Create
	case an && !c.afterExplicit && (!bn || c.beforeExplicit):
		return plans.Delete
	case jsonEqual(c.before, c.after) && c.afterExplicit == c.beforeExplicit && c.afterSensitive == c.beforeSensitive:
		return plans.NoOp
	}
	return plans.Update
}

// iterAction is the starting action of a collection, object or block,
// before its children have a say: created or deleted as a whole, or
// unchanged until a child says otherwise.
func (c change) iterAction() plans.Action {
	bn, an := c.beforeNil(), c.afterNil()
	switch {
	case bn && an:
		return plans.NoOp
	case bn:
		return plans.Create
	case an:
		return plans.Delete
	}
	return plans.NoOp
}

// attr is the change of one attribute of an object or block. Attributes
// are never explicit (see change.beforeExplicit).
func (c change) attr(name string) change {
	child := newChange(attrOf(c.before, name), attrOf(c.after, name), false, false, c.replace.key(name), c.relevant.key(name))
	if c.attrsUnknown {
		child.unknown = true
	}
	return child
}

// blockType is the change of the blocks of one nested block type; unlike
// attributes, they do not become unknown with their parent.
func (c change) blockType(name string) change {
	return newChange(attrOf(c.before, name), attrOf(c.after, name), false, false, c.replace.key(name), c.relevant.key(name))
}

// key is the change of one element of a map or of a JSON-like object;
// elements present in their parent are explicit.
func (c change) key(k string, before, after map[string]cty.Value) change {
	bv, bok := before[k]
	av, aok := after[k]
	return newChange(bv, av, bok, aok, c.replace.key(k), c.relevant.key(k))
}

// elem is the change between element bi of the before sequence and
// element ai of the after sequence; an index out of range is absent.
func (c change) elem(before, after []cty.Value, bi, ai int) change {
	var bv, av cty.Value
	bok := bi >= 0 && bi < len(before)
	aok := ai >= 0 && ai < len(after)
	if bok {
		bv = before[bi]
	}
	if aok {
		av = after[ai]
	}
	// Paths name the element by its position before the change, unless
	// it is new.
	ix := bi
	if !bok {
		ix = ai
	}
	return newChange(bv, av, bok, aok, c.replace.index(ix), c.relevant.index(ix))
}

// attrOf returns attribute name of an object value, or cty.NilVal.
func attrOf(v cty.Value, name string) cty.Value {
	if isNil(v) || !v.Type().IsObjectType() || !v.Type().HasAttribute(name) {
		return cty.NilVal
	}
	return v.GetAttr(name)
}

// elemsOf returns the elements of a list, set or tuple value, or nil when v
// is not a known, non-null sequence.
func elemsOf(v cty.Value) []cty.Value {
	if isNil(v) {
		return nil
	}
	ty := v.Type()
	if !ty.IsListType() && !ty.IsSetType() && !ty.IsTupleType() {
		return nil
	}
	out := make([]cty.Value, 0, v.LengthInt())
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		out = append(out, e)
	}
	return out
}

// entriesOf returns the elements of a map or object value by key, or nil
// when v is not a known, non-null mapping.
func entriesOf(v cty.Value) map[string]cty.Value {
	if isNil(v) {
		return nil
	}
	ty := v.Type()
	if !ty.IsMapType() && !ty.IsObjectType() {
		return nil
	}
	out := make(map[string]cty.Value, v.LengthInt())
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		out[k.AsString()] = e
	}
	return out
}

// unionKeys returns the keys of both maps.
func unionKeys(a, b map[string]cty.Value) []string {
	out := make([]string, 0, len(a)+len(b))
	for k := range a {
		out = append(out, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	return out
}
