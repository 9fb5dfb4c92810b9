package configschema

import (
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
)

func (b *Block) decoderSpec() hcldec.Spec {
	spec := make(hcldec.ObjectSpec, len(b.Attributes)+len(b.BlockTypes))
	for name, a := range b.Attributes {
		spec[name] = &hcldec.AttrSpec{
			Name:     name,
			Type:     a.configType(),
			Required: a.Required,
		}
	}
	for name, nb := range b.BlockTypes {
		spec[name] = nb.decoderSpec(name)
	}
	return spec
}

// configType is the type constraint a configuration value for the attribute
// must convert to. For nested attributes, optional and computed inner
// attributes are optional object attributes, so a configuration may omit
// them.
func (a *Attribute) configType() cty.Type {
	if a.NestedType == nil {
		return a.Type
	}
	return a.NestedType.configType()
}

func (o *Object) configType() cty.Type {
	attrs := make(map[string]cty.Type, len(o.Attributes))
	var optional []string
	for name, a := range o.Attributes {
		attrs[name] = a.configType()
		if !a.Required {
			optional = append(optional, name)
		}
	}
	obj := cty.ObjectWithOptionalAttrs(attrs, optional)
	switch o.Nesting {
	case NestingList:
		return cty.List(obj)
	case NestingSet:
		return cty.Set(obj)
	case NestingMap:
		return cty.Map(obj)
	default:
		return obj
	}
}

func (nb *NestedBlock) decoderSpec(name string) hcldec.Spec {
	inner := nb.Block.DecoderSpec()
	switch nb.Nesting {
	case NestingSingle:
		return &hcldec.BlockSpec{TypeName: name, Nested: inner, Required: nb.MinItems > 0}
	case NestingGroup:
		return &hcldec.DefaultSpec{
			Primary: &hcldec.BlockSpec{TypeName: name, Nested: inner},
			Default: &hcldec.LiteralSpec{Value: nullAttrsObject(&nb.Block)},
		}
	case NestingList:
		if nb.Block.ImpliedType().HasDynamicTypes() {
			return &hcldec.BlockTupleSpec{TypeName: name, Nested: inner, MinItems: nb.MinItems, MaxItems: nb.MaxItems}
		}
		return &hcldec.BlockListSpec{TypeName: name, Nested: inner, MinItems: nb.MinItems, MaxItems: nb.MaxItems}
	case NestingSet:
		return &hcldec.BlockSetSpec{TypeName: name, Nested: inner, MinItems: nb.MinItems, MaxItems: nb.MaxItems}
	case NestingMap:
		if nb.Block.ImpliedType().HasDynamicTypes() {
			return &hcldec.BlockObjectSpec{TypeName: name, Nested: inner, LabelNames: []string{"key"}}
		}
		return &hcldec.BlockMapSpec{TypeName: name, Nested: inner, LabelNames: []string{"key"}}
	}
	panic("configschema: invalid nesting mode for block " + name)
}

// nullAttrsObject is the value of an absent NestingGroup block: an object
// whose attributes are all null and whose nested blocks are empty.
func nullAttrsObject(b *Block) cty.Value {
	vals := make(map[string]cty.Value, len(b.Attributes)+len(b.BlockTypes))
	for name, a := range b.Attributes {
		vals[name] = cty.NullVal(a.ImpliedType())
	}
	for name, nb := range b.BlockTypes {
		ty := nb.impliedType()
		switch nb.Nesting {
		case NestingGroup:
			vals[name] = nullAttrsObject(&nb.Block)
		case NestingList:
			if ty.IsListType() {
				vals[name] = cty.ListValEmpty(ty.ElementType())
			} else {
				vals[name] = cty.EmptyTupleVal
			}
		case NestingSet:
			vals[name] = cty.SetValEmpty(ty.ElementType())
		case NestingMap:
			if ty.IsMapType() {
				vals[name] = cty.MapValEmpty(ty.ElementType())
			} else {
				vals[name] = cty.EmptyObjectVal
			}
		default:
			vals[name] = cty.NullVal(ty)
		}
	}
	return cty.ObjectVal(vals)
}
