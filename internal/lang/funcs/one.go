package funcs

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

const oneLengthMessage = "must be a list, set, or tuple value with either zero or one elements"

// makeOneFunc builds Terraform's one(list): null (of the element type) for
// an empty list, set or tuple, the sole element for one element, and an
// error for more. Neither library has it.
func makeOneFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
		Type: func(args []cty.Value) (cty.Type, error) {
			switch ty := args[0].Type(); {
			case ty.IsListType(), ty.IsSetType():
				return ty.ElementType(), nil
			case ty.IsTupleType():
				switch etys := ty.TupleElementTypes(); len(etys) {
				case 0:
					return cty.DynamicPseudoType, nil
				case 1:
					return etys[0], nil
				}
			}
			return cty.NilType, function.NewArgErrorf(0, oneLengthMessage)
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			v := args[0]
			// A set holding unknown elements may shrink once they are known,
			// so its length, and so the answer, is not known yet.
			if v.Type().IsSetType() && !v.IsWhollyKnown() && v.LengthInt() > 1 {
				return cty.UnknownVal(retType), nil
			}
			switch v.LengthInt() {
			case 0:
				return cty.NullVal(retType), nil
			case 1:
				return v.AsValueSlice()[0], nil
			default:
				return cty.NilVal, function.NewArgErrorf(0, oneLengthMessage)
			}
		},
	})
}
