package funcs

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// makeLengthFunc builds Terraform's length(value): the number of elements of
// a list, set, tuple or map, of attributes of an object, or of characters
// (grapheme clusters, via stdlib's strlen) of a string. stdlib's length
// counts only collections.
//
// The parameter takes marked values so that only the value's own marks reach
// the result: the length of a list of sensitive strings is not sensitive,
// which is what lets such a list drive count, as in Terraform.
func makeLengthFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{
			Name:             "value",
			Type:             cty.DynamicPseudoType,
			AllowDynamicType: true,
			AllowUnknown:     true,
			AllowMarked:      true,
		}},
		Type: func(args []cty.Value) (cty.Type, error) {
			switch ty := args[0].Type(); {
			case ty == cty.String, ty == cty.DynamicPseudoType,
				ty.IsCollectionType(), ty.IsTupleType(), ty.IsObjectType():
				return cty.Number, nil
			default:
				return cty.NilType, function.NewArgErrorf(0, "argument must be a string, a collection type, or a structural type")
			}
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			v, marks := args[0].Unmark()
			switch ty := v.Type(); {
			case ty == cty.DynamicPseudoType:
				return cty.UnknownVal(cty.Number).WithMarks(marks), nil
			case ty == cty.String:
				n, err := stdlib.StrlenFunc.Call([]cty.Value{v})
				if err != nil {
					return cty.NilVal, err
				}
				return n.WithMarks(marks), nil
			case ty.IsObjectType():
				// An object's length is fixed by its type, known or not.
				return cty.NumberIntVal(int64(len(ty.AttributeTypes()))).WithMarks(marks), nil
			default:
				return v.Length().WithMarks(marks), nil
			}
		},
	})
}
