package funcs

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

// makeMatchkeysFunc builds Terraform's matchkeys(values, keys, searchset):
// the elements of values whose counterpart in keys (same position) is in
// searchset, in their original order. Neither library has it.
//
// keys and searchset must unify to one element type. When a comparison with
// an unknown value cannot be decided, the whole result is unknown: which
// elements it holds is not yet known.
func makeMatchkeysFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "values", Type: cty.List(cty.DynamicPseudoType)},
			{Name: "keys", Type: cty.List(cty.DynamicPseudoType)},
			{Name: "searchset", Type: cty.List(cty.DynamicPseudoType)},
		},
		Type: func(args []cty.Value) (cty.Type, error) {
			if ty, _ := convert.UnifyUnsafe([]cty.Type{args[1].Type(), args[2].Type()}); ty == cty.NilType {
				return cty.NilType, function.NewArgErrorf(1, "keys and searchset must be of the same type")
			}
			return args[0].Type(), nil
		},
		Impl: matchkeysImpl,
	})
}

func matchkeysImpl(args []cty.Value, retType cty.Type) (cty.Value, error) {
	values, keys, search := args[0], args[1], args[2]
	if values.LengthInt() != keys.LengthInt() {
		return cty.NilVal, function.NewArgErrorf(1, "length of keys and values should be equal")
	}
	if values.LengthInt() == 0 {
		return cty.ListValEmpty(retType.ElementType()), nil
	}

	ty, _ := convert.UnifyUnsafe([]cty.Type{keys.Type(), search.Type()})
	keys, err := convert.Convert(keys, ty)
	if err != nil {
		return cty.NilVal, function.NewArgError(1, err)
	}
	search, err = convert.Convert(search, ty)
	if err != nil {
		return cty.NilVal, function.NewArgError(2, err)
	}

	var out []cty.Value
	for i, key := range keys.AsValueSlice() {
		found, known := listContains(search, key)
		if !known {
			return cty.UnknownVal(retType), nil
		}
		if found {
			out = append(out, values.Index(cty.NumberIntVal(int64(i))))
		}
	}
	if len(out) == 0 {
		return cty.ListValEmpty(retType.ElementType()), nil
	}
	return cty.ListVal(out), nil
}

// listContains reports whether list has an element equal to v, and whether
// that answer is known: an unknown comparison before any match makes it
// unknown.
func listContains(list, v cty.Value) (found, known bool) {
	for it := list.ElementIterator(); it.Next(); {
		_, e := it.Element()
		eq := e.Equals(v)
		if !eq.IsKnown() {
			return false, false
		}
		if eq.True() {
			return true, true
		}
	}
	return false, true
}
