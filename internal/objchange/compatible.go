package objchange

import (
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/zclconf/go-cty/cty"
)

// AssertObjectCompatible checks that actual keeps every value that was known
// in planned: unknowns in planned may resolve to anything of the right type,
// known values must not change. The engine uses it for the final plan made
// at apply time (against the initial plan) and for the new state an apply
// returns (against the final plan).
func AssertObjectCompatible(schema *configschema.Block, planned, actual cty.Value) []error {
	c := newChecker(&planned, &actual)
	c.compatibleBlock(schema, planned, actual, rootPath())
	return c.errs
}

// AssertObjectCompatibleUnmarked is AssertObjectCompatible for unmarked
// values, with the paths to redact given directly.
func AssertObjectCompatibleUnmarked(schema *configschema.Block, planned, actual cty.Value, sensitive []cty.Path) []error {
	c := &checker{sensitive: sensitive}
	c.compatibleBlock(schema, planned, actual, rootPath())
	return c.errs
}

func (c *checker) compatibleBlock(schema *configschema.Block, planned, actual cty.Value, path cty.Path) {
	if !planned.IsKnown() {
		return
	}
	if planned.IsNull() != actual.IsNull() {
		c.errorf(path, "was %s, but now %s", nullness(planned), nullness(actual))
		return
	}
	if planned.IsNull() {
		return
	}
	if !actual.IsKnown() {
		c.errorf(path, "was known, but now unknown")
		return
	}
	for name, attr := range schema.Attributes {
		p := appendStep(path, cty.GetAttrStep{Name: name})
		c.compatibleAttr(attr, planned.GetAttr(name), actual.GetAttr(name), p)
	}
	for name, nb := range schema.BlockTypes {
		p := appendStep(path, cty.GetAttrStep{Name: name})
		c.compatibleNestedBlock(nb, planned.GetAttr(name), actual.GetAttr(name), p)
	}
}

func (c *checker) compatibleAttr(attr *configschema.Attribute, planned, actual cty.Value, path cty.Path) {
	if attr.NestedType != nil && planned.IsKnown() && !planned.IsNull() && actual.IsKnown() && !actual.IsNull() {
		c.compatibleNestedAttr(attr, planned, actual, path)
		return
	}
	c.compatibleValue(attr, planned, actual, path)
}

// compatibleValue compares two values of an attribute whose type may be any
// cty type, descending into collections so the error names the innermost
// changed path.
func (c *checker) compatibleValue(attr *configschema.Attribute, planned, actual cty.Value, path cty.Path) {
	switch {
	case !planned.IsKnown():
		// Anything may replace an unknown, including another unknown
		// during the final plan.
		return
	case !actual.IsKnown():
		c.errorf(path, "was %s, but now unknown", c.show(path, planned, attr))
		return
	case planned.IsWhollyKnown():
		if !planned.RawEquals(actual) && !planned.Equals(actual).True() {
			c.errorf(path, "was %s, but now %s", c.show(path, planned, attr), c.show(path, actual, attr))
		}
		return
	case planned.IsNull() || actual.IsNull():
		if planned.IsNull() != actual.IsNull() {
			c.errorf(path, "was %s, but now %s", c.show(path, planned, attr), c.show(path, actual, attr))
		}
		return
	}
	ty := planned.Type()
	switch {
	case ty.IsObjectType() || ty.IsMapType() || ty.IsListType() || ty.IsTupleType():
		if planned.LengthInt() != actual.LengthInt() {
			c.errorf(path, "had %d elements, but now %d", planned.LengthInt(), actual.LengthInt())
			return
		}
		if ty.IsObjectType() {
			for name := range ty.AttributeTypes() {
				c.compatibleValue(attr, planned.GetAttr(name), actual.GetAttr(name), appendStep(path, cty.GetAttrStep{Name: name}))
			}
			return
		}
		for it := planned.ElementIterator(); it.Next(); {
			k, pv := it.Element()
			if actual.HasIndex(k).False() {
				c.errorf(path, "element %s was removed", showValue(k))
				continue
			}
			c.compatibleValue(attr, pv, actual.Index(k), appendStep(path, cty.IndexStep{Key: k}))
		}
	case ty.IsSetType():
		c.compatibleSet(planned, actual, path)
	}
}

// compatibleSet accepts any actual set when the planned one holds unknowns,
// as long as it does not have more elements than planned: an unknown element
// may turn out equal to another and collapse, but elements cannot appear.
func (c *checker) compatibleSet(planned, actual cty.Value, path cty.Path) {
	if !planned.Length().IsKnown() {
		return
	}
	if actual.LengthInt() > planned.LengthInt() {
		c.errorf(path, "planned set had %d elements, but now %d", planned.LengthInt(), actual.LengthInt())
	}
}

func (c *checker) compatibleNestedAttr(attr *configschema.Attribute, planned, actual cty.Value, path cty.Path) {
	obj := attr.NestedType
	objBlock := &configschema.Block{Attributes: obj.Attributes}
	switch obj.Nesting {
	case configschema.NestingSingle, configschema.NestingGroup:
		c.compatibleBlock(objBlock, planned, actual, path)
	case configschema.NestingList, configschema.NestingMap:
		if planned.LengthInt() != actual.LengthInt() {
			c.errorf(path, "had %d elements, but now %d", planned.LengthInt(), actual.LengthInt())
			return
		}
		for it := planned.ElementIterator(); it.Next(); {
			k, pv := it.Element()
			if actual.HasIndex(k).False() {
				c.errorf(path, "element %s was removed", showValue(k))
				continue
			}
			c.compatibleBlock(objBlock, pv, actual.Index(k), appendStep(path, cty.IndexStep{Key: k}))
		}
	case configschema.NestingSet:
		if planned.IsWhollyKnown() {
			c.compatibleValue(attr, planned, actual, path)
			return
		}
		c.compatibleSet(planned, actual, path)
	}
}

func (c *checker) compatibleNestedBlock(nb *configschema.NestedBlock, planned, actual cty.Value, path cty.Path) {
	switch nb.Nesting {
	case configschema.NestingSingle, configschema.NestingGroup:
		c.compatibleBlock(&nb.Block, planned, actual, path)
	case configschema.NestingList, configschema.NestingMap:
		if !planned.IsKnown() {
			return
		}
		if !actual.IsKnown() {
			c.errorf(path, "was known, but now unknown")
			return
		}
		if planned.IsNull() || actual.IsNull() {
			if planned.IsNull() != actual.IsNull() {
				c.errorf(path, "was %s, but now %s", nullness(planned), nullness(actual))
			}
			return
		}
		if planned.LengthInt() != actual.LengthInt() {
			c.errorf(path, "block count changed from %d to %d", planned.LengthInt(), actual.LengthInt())
			return
		}
		for it := planned.ElementIterator(); it.Next(); {
			k, pv := it.Element()
			if actual.HasIndex(k).False() {
				c.errorf(path, "block %s was removed", showValue(k))
				continue
			}
			c.compatibleBlock(&nb.Block, pv, actual.Index(k), appendStep(path, cty.IndexStep{Key: k}))
		}
	case configschema.NestingSet:
		if !planned.IsKnown() {
			return
		}
		if planned.IsWhollyKnown() {
			if !planned.RawEquals(actual) && !(actual.IsKnown() && planned.Equals(actual).True()) {
				c.errorf(path, "planned set of blocks changed")
			}
			return
		}
		if actual.IsKnown() && !actual.IsNull() {
			c.compatibleSet(planned, actual, path)
		}
	}
}

func nullness(v cty.Value) string {
	switch {
	case !v.IsKnown():
		return "unknown"
	case v.IsNull():
		return "null"
	}
	return "present"
}

// AssertWhollyKnown checks that a value a provider returned from read,
// upgrade or apply contains no unknown values, naming the first unknown path.
func AssertWhollyKnown(v cty.Value) []error {
	if v.IsWhollyKnown() {
		return nil
	}
	c := newChecker(&v)
	_ = cty.Walk(v, func(p cty.Path, v cty.Value) (bool, error) {
		if !v.IsKnown() {
			c.errorf(p, "value is unknown; a provider must return a wholly known object here")
			return false, nil
		}
		return true, nil
	})
	return c.errs
}
