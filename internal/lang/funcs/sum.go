package funcs

import (
	"errors"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

// makeSumFunc builds Terraform's sum(list): the sum of a non-empty list,
// set or tuple of numbers, computed with cty's arbitrary-precision numbers.
// Neither library has it. Any unknown element makes the sum unknown.
func makeSumFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
		Type: func(args []cty.Value) (cty.Type, error) {
			if ty := args[0].Type(); !ty.IsListType() && !ty.IsSetType() && !ty.IsTupleType() {
				return cty.NilType, function.NewArgErrorf(0, "argument must be list, set, or tuple. Received %s", ty.FriendlyName())
			}
			return cty.Number, nil
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			list := args[0]
			if list.LengthInt() == 0 {
				return cty.NilVal, function.NewArgErrorf(0, "cannot sum an empty list")
			}
			if !list.IsWhollyKnown() {
				return cty.UnknownVal(cty.Number), nil
			}
			total := cty.Zero
			for it := list.ElementIterator(); it.Next(); {
				_, e := it.Element()
				n, err := convert.Convert(e, cty.Number)
				if err != nil || n.IsNull() {
					return cty.NilVal, function.NewArgErrorf(0, "argument must be list, set, or tuple of number values")
				}
				if total, err = addNumbers(total, n); err != nil {
					return cty.NilVal, function.NewArgError(0, err)
				}
			}
			return total, nil
		},
	})
}

// addNumbers returns a+b. cty panics on +Inf + -Inf, whose result is not a
// number; that becomes an error here.
func addNumbers(a, b cty.Value) (sum cty.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			sum, err = cty.NilVal, errors.New("can't compute sum of opposing infinities")
		}
	}()
	return a.Add(b), nil
}
