package typeconv

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// kind is the collection a tuple or object becomes.
type kind int

const (
	toList kind = iota
	toSet
	toMap
)

// collectionPlan is how to convert one tuple or object type to a collection
// (of any type, or of one given type): the element type every element
// converts to (cty.NilType if
// none does), the distinct element types with the conversion each needs
// (nil when the type is already elem), and which distinct type each
// element has, by position for a tuple or by name for an object.
type collectionPlan struct {
	kind   kind
	elem   cty.Type
	convs  []convert.Conversion
	byPos  []int
	byName map[string]int
}

// planFor returns the plan for converting got to want, and false when the
// conversion is not one this package speeds up.
func planFor(got, want cty.Type) (*collectionPlan, bool) {
	if !want.IsCollectionType() {
		return nil, false
	}
	p := &collectionPlan{}
	var types distinctTypes
	switch {
	case want.IsListType() && got.IsTupleType(), want.IsSetType() && got.IsTupleType():
		p.kind = toList
		if want.IsSetType() {
			p.kind = toSet
		}
		etys := got.TupleElementTypes()
		if len(etys) == 0 {
			return nil, false
		}
		p.byPos = make([]int, len(etys))
		for i, ty := range etys {
			p.byPos[i] = types.indexOf(ty)
		}
	case want.IsMapType() && got.IsObjectType():
		p.kind = toMap
		atys := got.AttributeTypes()
		if len(atys) == 0 {
			return nil, false
		}
		p.byName = make(map[string]int, len(atys))
		for name, ty := range atys {
			p.byName[name] = types.indexOf(ty)
		}
	default:
		return nil, false
	}
	if ety := want.ElementType(); ety != cty.DynamicPseudoType {
		p.elem, p.convs = convertDistinct(types.list, ety)
	} else {
		p.elem, p.convs = unifyDistinct(types.list, p.kind != toMap)
	}
	return p, true
}

// convertDistinct returns elem with the conversion each of the given
// distinct types needs to it (nil for elem itself), or cty.NilType if one
// has none: convert's plan for a collection of a given element type, which
// unifies nothing first.
func convertDistinct(types []cty.Type, elem cty.Type) (cty.Type, []convert.Conversion) {
	convs := make([]convert.Conversion, len(types))
	for i, ty := range types {
		if ty.Equals(elem) {
			continue
		}
		if convs[i] = convert.GetConversionUnsafe(ty, elem); convs[i] == nil {
			return cty.NilType, nil
		}
	}
	return elem, convs
}

// unifyDistinct returns the type convert unifies the given distinct types
// to, with the conversion each needs, or cty.NilType if there is none.
// Unifying the distinct types gives the type unifying every element's would:
// unification depends on which types occur, not how often. With
// onlyDynamic, a unified type of cty.DynamicPseudoType is accepted only if
// every type is, as convert does for lists and sets (not maps).
func unifyDistinct(types []cty.Type, onlyDynamic bool) (cty.Type, []convert.Conversion) {
	elem, _ := convert.UnifyUnsafe(types)
	if elem == cty.NilType {
		return cty.NilType, nil
	}
	convs := make([]convert.Conversion, len(types))
	for i, ty := range types {
		if onlyDynamic && elem == cty.DynamicPseudoType && ty != cty.DynamicPseudoType {
			// convert accepts elements of unknown type only if every
			// element is of unknown type.
			return cty.NilType, nil
		}
		if ty.Equals(elem) {
			continue
		}
		if convs[i] = convert.GetConversionUnsafe(ty, elem); convs[i] == nil {
			return cty.NilType, nil
		}
	}
	return elem, convs
}

// distinctTypes collects types without repeats, in order of first
// appearance.
type distinctTypes struct {
	list  []cty.Type
	index map[string]int
	last  int
}

// index returns ty's position in the list, adding it if it is new. Runs of
// one type, the usual case, cost one Equals each; other types are found by
// their GoString, which names a type exactly.
func (d *distinctTypes) indexOf(ty cty.Type) int {
	if len(d.list) > 0 && d.list[d.last].Equals(ty) {
		return d.last
	}
	if d.index == nil {
		d.index = make(map[string]int)
	}
	key := ty.GoString()
	i, ok := d.index[key]
	if !ok {
		i = len(d.list)
		d.list = append(d.list, ty)
		d.index[key] = i
	}
	d.last = i
	return i
}
