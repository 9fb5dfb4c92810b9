package objchange

import (
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/zclconf/go-cty/cty"
)

// AssertPlanValid checks a provider's planned new state against the
// configuration and prior state it was given. The rules of protocol v6:
//
//   - a non-null configuration value is planned as itself, or as the prior
//     value (the provider considers them equivalent);
//   - only computed attributes the configuration leaves null may take a
//     provider-chosen (possibly unknown) value;
//   - a non-computed attribute the configuration leaves null stays null;
//   - nested blocks keep the number of blocks the configuration has.
//
// prior may be null (create). Values may carry sensitive marks; they are
// used only to redact messages. The result is nil when the plan is valid.
func AssertPlanValid(schema *configschema.Block, prior, config, planned cty.Value) []error {
	c := newChecker(&prior, &config, &planned)
	return c.planValid(schema, prior, config, planned)
}

// AssertPlanValidUnmarked is AssertPlanValid for values the caller has
// already unmarked, with the paths to redact in messages given directly.
// The engine uses it to avoid walking every value again for marks.
func AssertPlanValidUnmarked(schema *configschema.Block, prior, config, planned cty.Value, sensitive []cty.Path) []error {
	c := &checker{sensitive: sensitive}
	return c.planValid(schema, prior, config, planned)
}

func (c *checker) planValid(schema *configschema.Block, prior, config, planned cty.Value) []error {
	if !planned.Type().Equals(schema.ImpliedType()) {
		if errs := planned.Type().TestConformance(schema.ImpliedType()); len(errs) > 0 {
			c.errorf(nil, "planned value does not conform to the schema: %s", errs[0])
			return c.errs
		}
	}
	if planned.IsNull() {
		if !config.IsNull() {
			c.errorf(nil, "planned a null object for a non-null configuration")
		}
		return c.errs
	}
	if prior.IsNull() {
		prior = allAttributesNull(schema)
	}
	c.plannedBlock(schema, prior, config, planned, rootPath())
	return c.errs
}

func (c *checker) plannedBlock(schema *configschema.Block, prior, config, planned cty.Value, path cty.Path) {
	if !planned.IsKnown() {
		c.errorf(path, "planned an unknown value for a nested block")
		return
	}
	if planned.IsNull() {
		if !config.IsNull() {
			c.errorf(path, "planned null for a configured nested block")
		}
		return
	}
	if prior.IsNull() || !prior.IsKnown() {
		prior = allAttributesNull(schema)
	}
	for name, attr := range schema.Attributes {
		p := appendStep(path, cty.GetAttrStep{Name: name})
		c.plannedAttr(attr, prior.GetAttr(name), config.GetAttr(name), planned.GetAttr(name), p)
	}
	for name, nb := range schema.BlockTypes {
		p := appendStep(path, cty.GetAttrStep{Name: name})
		c.plannedNestedBlock(nb, prior.GetAttr(name), config.GetAttr(name), planned.GetAttr(name), p)
	}
}

func (c *checker) plannedAttr(attr *configschema.Attribute, prior, config, planned cty.Value, path cty.Path) {
	if planned.RawEquals(config) {
		return
	}
	if !config.IsKnown() && !planned.IsKnown() {
		// Still unknown, as configured. Refinements (not null, a string
		// prefix) are not compared: providers built on the framework or
		// protocol 5 return unknowns without them, which says less, never
		// something else.
		return
	}
	if !prior.IsNull() && !config.IsNull() && planned.RawEquals(prior) {
		// The provider judged the configured value equivalent to the prior
		// one (normalization) and kept the prior.
		return
	}
	switch {
	case attr.Computed && !attr.Optional:
		// Wholly provider-owned; ignore_changes may even have put a
		// configuration value here.
		return
	case attr.Computed && config.IsNull():
		return
	case attr.WriteOnly && planned.IsNull():
		// Sent to the provider, never planned (protocol 6.8).
		return
	case config.IsNull():
		c.errorf(path, "planned value %s for a non-computed attribute left unset in configuration",
			c.show(path, planned, attr))
		return
	}
	if attr.NestedType != nil && config.IsKnown() && planned.IsKnown() && !planned.IsNull() {
		c.plannedNestedAttr(attr.NestedType, prior, config, planned, path)
		return
	}
	if prior.IsNull() {
		c.errorf(path, "planned value %s does not match the configured value %s",
			c.show(path, planned, attr), c.show(path, config, attr))
		return
	}
	c.errorf(path, "planned value %s does not match the configured value %s nor the prior value %s",
		c.show(path, planned, attr), c.show(path, config, attr), c.show(path, prior, attr))
}

func (c *checker) plannedNestedAttr(obj *configschema.Object, prior, config, planned cty.Value, path cty.Path) {
	check := func(p, cfg, pl cty.Value, at cty.Path) {
		if pl.IsNull() || !pl.IsKnown() || cfg.IsNull() {
			return
		}
		if p.IsNull() || !p.IsKnown() {
			p = cty.NullVal(pl.Type())
		}
		for name, a := range obj.Attributes {
			pv := cty.NullVal(a.ImpliedType())
			if !p.IsNull() {
				pv = p.GetAttr(name)
			}
			c.plannedAttr(a, pv, cfg.GetAttr(name), pl.GetAttr(name), appendStep(at, cty.GetAttrStep{Name: name}))
		}
	}
	switch obj.Nesting {
	case configschema.NestingSingle, configschema.NestingGroup:
		check(prior, config, planned, path)
	case configschema.NestingList, configschema.NestingMap:
		if planned.LengthInt() != config.LengthInt() {
			c.errorf(path, "planned %d elements for %d configured", planned.LengthInt(), config.LengthInt())
			return
		}
		for it := planned.ElementIterator(); it.Next(); {
			k, pl := it.Element()
			cfg := config.Index(k)
			pr := cty.NullVal(pl.Type())
			if !prior.IsNull() && prior.IsKnown() && prior.HasIndex(k).True() {
				pr = prior.Index(k)
			}
			check(pr, cfg, pl, appendStep(path, cty.IndexStep{Key: k}))
		}
	case configschema.NestingSet:
		// Set elements cannot be paired reliably once the provider fills
		// in computed attributes; only their number is checked.
		if planned.LengthInt() < config.LengthInt() && config.IsWhollyKnown() {
			c.errorf(path, "planned %d elements for %d configured", planned.LengthInt(), config.LengthInt())
		}
	}
}

func (c *checker) plannedNestedBlock(nb *configschema.NestedBlock, prior, config, planned cty.Value, path cty.Path) {
	switch nb.Nesting {
	case configschema.NestingSingle, configschema.NestingGroup:
		if planned.IsNull() != config.IsNull() && config.IsKnown() {
			c.errorf(path, "planned the block as present=%t while the configuration has present=%t", !planned.IsNull(), !config.IsNull())
			return
		}
		c.plannedBlock(&nb.Block, prior, config, planned, path)
	case configschema.NestingList, configschema.NestingMap:
		if !config.IsKnown() || config.IsNull() {
			return
		}
		if !planned.IsKnown() || planned.IsNull() {
			c.errorf(path, "planned an unknown or null collection for configured blocks")
			return
		}
		if planned.LengthInt() != config.LengthInt() {
			c.errorf(path, "planned %d blocks where the configuration has %d", planned.LengthInt(), config.LengthInt())
			return
		}
		for it := planned.ElementIterator(); it.Next(); {
			k, pl := it.Element()
			pr := cty.NullVal(pl.Type())
			if !prior.IsNull() && prior.IsKnown() && prior.HasIndex(k).True() {
				pr = prior.Index(k)
			}
			c.plannedBlock(&nb.Block, pr, config.Index(k), pl, appendStep(path, cty.IndexStep{Key: k}))
		}
	case configschema.NestingSet:
		if !config.IsWhollyKnown() || config.IsNull() || !planned.IsKnown() || planned.IsNull() {
			return
		}
		// Planned elements may gain computed values, which can make two
		// configured elements differ or collapse two into one; Terraform
		// accepts any count here as long as blocks were not dropped
		// wholesale.
		if config.LengthInt() > 0 && planned.LengthInt() == 0 {
			c.errorf(path, "planned no blocks where the configuration has %d", config.LengthInt())
		}
	}
}
