package funcs

import (
	"errors"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// makeIndexFunc builds Terraform's index(list, value): the position of the
// first element equal to value. go-cty's stdlib has a function of the same
// name that does something else (it reads the element at a key), so this
// one is Cairn's.
//
// Equality is cty's: types must match after HCL's argument conversion. If
// comparing an element with value gives an unknown answer before a match is
// found, the position is unknown too.
func makeIndexFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "list", Type: cty.DynamicPseudoType},
			{Name: "value", Type: cty.DynamicPseudoType},
		},
		Type: func(args []cty.Value) (cty.Type, error) {
			if ty := args[0].Type(); !ty.IsListType() && !ty.IsTupleType() {
				return cty.NilType, function.NewArgErrorf(0, "argument must be a list or tuple")
			}
			return cty.Number, nil
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			list, value := args[0], args[1]
			if list.LengthInt() == 0 {
				return cty.NilVal, function.NewArgErrorf(0, "cannot search an empty list")
			}
			for it := list.ElementIterator(); it.Next(); {
				i, v := it.Element()
				eq := v.Equals(value)
				if !eq.IsKnown() {
					return cty.UnknownVal(cty.Number), nil
				}
				if eq.True() {
					return i, nil
				}
			}
			return cty.NilVal, errors.New("item not found")
		},
	})
}
