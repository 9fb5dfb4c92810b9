package typeconv

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// apply converts v, a known, non-null, unmarked value of the type p was
// planned for. Its steps are convert's for the same conversion, in the
// same order, so that the same elements fail with the same errors.
func (p *collectionPlan) apply(v cty.Value) (cty.Value, error) {
	switch p.kind {
	case toMap:
		return p.applyMap(v)
	case toSet:
		return p.applySet(v)
	}
	return p.applyList(v)
}

func (p *collectionPlan) applyList(v cty.Value) (cty.Value, error) {
	elems, err := p.convertElems(v)
	if err != nil {
		return cty.NilVal, err
	}
	// convert unifies the converted elements once more, which matters only
	// when the element type leaves parts of unknown type.
	if err := unifyConverted(elems, func(i int) cty.Path { return indexPath(cty.NumberIntVal(int64(i))) }); err != nil {
		return cty.NilVal, err
	}
	if !cty.CanListVal(elems) {
		return cty.NilVal, cty.Path(nil).NewErrorf("element types must all match for conversion to list")
	}
	return cty.ListVal(elems), nil
}

func (p *collectionPlan) applySet(v cty.Value) (cty.Value, error) {
	elems, err := p.convertElems(v)
	if err != nil {
		return cty.NilVal, err
	}
	for i, e := range elems {
		if e.IsNull() {
			elems[i] = cty.NullVal(e.Type().WithoutOptionalAttributesDeep())
		}
	}
	if !cty.CanSetVal(elems) {
		return cty.NilVal, cty.Path(nil).NewErrorf("element types must all match for conversion to set")
	}
	return cty.SetVal(elems), nil
}

// convertElems converts each element of the tuple v to the plan's element
// type.
func (p *collectionPlan) convertElems(v cty.Value) ([]cty.Value, error) {
	elems := make([]cty.Value, 0, len(p.byPos))
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		if conv := p.convs[p.byPos[len(elems)]]; conv != nil {
			var err error
			if e, err = conv(e); err != nil {
				return nil, atPath(indexPath(k), err)
			}
		}
		elems = append(elems, e)
	}
	return elems, nil
}

func (p *collectionPlan) applyMap(v cty.Value) (cty.Value, error) {
	elems := make(map[string]cty.Value, len(p.byName))
	keys := make([]string, 0, len(p.byName))
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		name := k.AsString()
		if conv := p.convs[p.byName[name]]; conv != nil {
			var err error
			if e, err = conv(e); err != nil {
				return cty.NilVal, atPath(indexPath(k), err)
			}
		}
		elems[name] = e
		keys = append(keys, name)
	}
	if p.elem.IsCollectionType() || p.elem.IsObjectType() {
		list := make([]cty.Value, len(keys))
		for i, name := range keys {
			list[i] = elems[name]
		}
		if err := unifyConverted(list, func(i int) cty.Path { return indexPath(cty.StringVal(keys[i])) }); err != nil {
			return cty.NilVal, err
		}
		for i, name := range keys {
			elems[name] = list[i]
		}
	}
	if !cty.CanMapVal(elems) {
		return cty.NilVal, cty.Path(nil).NewErrorf("attribute types must all match for conversion to map")
	}
	return cty.MapVal(elems), nil
}

// unifyConverted converts elems in place to the type their types unify to,
// as convert does after converting each element; path names element i in
// an error.
func unifyConverted(elems []cty.Value, path func(i int) cty.Path) error {
	var types distinctTypes
	idx := make([]int, len(elems))
	for i, e := range elems {
		idx[i] = types.indexOf(e.Type())
	}
	unified, _ := convert.UnifyUnsafe(types.list)
	if unified == cty.NilType {
		return cty.Path(nil).NewErrorf("cannot find a common base type for all elements")
	}
	convs := make([]convert.Conversion, len(types.list))
	for i, ty := range types.list {
		if ty.Equals(unified) {
			continue
		}
		if convs[i] = convert.GetConversionUnsafe(ty, unified); convs[i] == nil {
			return cty.Path(nil).NewErrorf("cannot find a common base type for all elements")
		}
	}
	for i, e := range elems {
		if conv := convs[idx[i]]; conv != nil {
			out, err := conv(e)
			if err != nil {
				return atPath(path(i), err)
			}
			elems[i] = out
		}
	}
	return nil
}

func indexPath(key cty.Value) cty.Path {
	return cty.Path{cty.IndexStep{Key: key}}
}

// atPath puts path in front of the path of err if err is a cty.PathError,
// as convert's errors for elements carry their element's path.
func atPath(path cty.Path, err error) error {
	if _, ok := err.(cty.PathError); ok {
		return path.NewError(err)
	}
	return err
}
