package objchange

import (
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/zclconf/go-cty/cty"
)

// ProposedNew returns the Proposed New State for a resource: the
// configuration, with every computed attribute the configuration leaves
// null taken from the prior object. A provider starts its plan from this
// value.
//
// prior may be null (a create); config must not be null. Both must be
// unmarked values of schema's implied type. Nested blocks are matched to
// their prior counterparts by index (lists), key (maps) or content (sets),
// so computed attributes inside them carry over too.
func ProposedNew(schema *configschema.Block, prior, config cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() {
		return config
	}
	if prior.IsNull() {
		// A synthetic prior with every attribute null lets the same code
		// handle creates and updates: computed attributes then propose null,
		// which the provider replaces with an unknown or a chosen value.
		prior = allAttributesNull(schema)
	}
	return proposedNewBlock(schema, prior, config)
}

func proposedNewBlock(schema *configschema.Block, prior, config cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() {
		return config
	}
	if prior.IsNull() || !prior.IsKnown() {
		prior = allAttributesNull(schema)
	}
	vals := make(map[string]cty.Value, len(schema.Attributes)+len(schema.BlockTypes))
	for name, attr := range schema.Attributes {
		vals[name] = proposedNewAttr(attr, prior.GetAttr(name), config.GetAttr(name))
	}
	for name, nb := range schema.BlockTypes {
		vals[name] = proposedNewNestedBlock(nb, prior.GetAttr(name), config.GetAttr(name))
	}
	return cty.ObjectVal(vals)
}

func proposedNewAttr(attr *configschema.Attribute, prior, config cty.Value) cty.Value {
	switch {
	case attr.Computed && config.IsNull():
		// The provider decides; offer what it decided last time. An
		// unknown prior (never stored, but possible mid-plan) stays
		// unknown.
		return prior
	case attr.NestedType != nil && config.IsKnown() && !config.IsNull():
		return proposedNewNestedAttr(attr.NestedType, prior, config)
	default:
		return config
	}
}

func proposedNewNestedAttr(obj *configschema.Object, prior, config cty.Value) cty.Value {
	switch obj.Nesting {
	case configschema.NestingSingle, configschema.NestingGroup:
		return proposedNewObjectAttrs(obj, prior, config)
	case configschema.NestingList:
		return mapListElems(prior, config, func(p, c cty.Value) cty.Value { return proposedNewObjectAttrs(obj, p, c) })
	case configschema.NestingMap:
		return mapMapElems(prior, config, func(p, c cty.Value) cty.Value { return proposedNewObjectAttrs(obj, p, c) })
	case configschema.NestingSet:
		return mapSetElems(prior, config, objectIdentity(obj), func(p, c cty.Value) cty.Value { return proposedNewObjectAttrs(obj, p, c) })
	}
	return config
}

func proposedNewObjectAttrs(obj *configschema.Object, prior, config cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() {
		return config
	}
	vals := make(map[string]cty.Value, len(obj.Attributes))
	for name, attr := range obj.Attributes {
		p := cty.NullVal(attr.ImpliedType())
		if !prior.IsNull() && prior.IsKnown() {
			p = prior.GetAttr(name)
		}
		vals[name] = proposedNewAttr(attr, p, config.GetAttr(name))
	}
	return cty.ObjectVal(vals)
}

func proposedNewNestedBlock(nb *configschema.NestedBlock, prior, config cty.Value) cty.Value {
	if !config.IsKnown() {
		return config
	}
	switch nb.Nesting {
	case configschema.NestingSingle, configschema.NestingGroup:
		return proposedNewBlock(&nb.Block, prior, config)
	case configschema.NestingList:
		return mapListElems(prior, config, func(p, c cty.Value) cty.Value { return proposedNewBlock(&nb.Block, p, c) })
	case configschema.NestingMap:
		return mapMapElems(prior, config, func(p, c cty.Value) cty.Value { return proposedNewBlock(&nb.Block, p, c) })
	case configschema.NestingSet:
		return mapSetElems(prior, config, blockIdentity(&nb.Block), func(p, c cty.Value) cty.Value { return proposedNewBlock(&nb.Block, p, c) })
	}
	return config
}

// allAttributesNull is the value of an empty body: null attributes, empty
// collections of nested blocks, and groups of null attributes.
func allAttributesNull(schema *configschema.Block) cty.Value {
	return schema.EmptyValue()
}
