package funcs

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// makeAllTrueFunc builds alltrue(list): true when every element is true, so
// true for an empty list. A null element counts as false, as in Terraform.
// Elements are read in order and the first one that decides the answer
// wins: a false before any unknown gives false, an unknown before any false
// gives an unknown bool.
func makeAllTrueFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
		Type:   function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			for it := args[0].ElementIterator(); it.Next(); {
				_, v := it.Element()
				switch {
				case !v.IsKnown():
					return cty.UnknownVal(cty.Bool), nil
				case v.IsNull() || v.False():
					return cty.False, nil
				}
			}
			return cty.True, nil
		},
	})
}

// makeAnyTrueFunc builds anytrue(list): true when at least one element is
// true, so false for an empty list. Null elements count as false. A true
// element anywhere decides the answer even if others are unknown; otherwise
// any unknown element makes the answer unknown.
func makeAnyTrueFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
		Type:   function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			unknown := false
			for it := args[0].ElementIterator(); it.Next(); {
				_, v := it.Element()
				switch {
				case !v.IsKnown():
					unknown = true
				case !v.IsNull() && v.True():
					return cty.True, nil
				}
			}
			if unknown {
				return cty.UnknownVal(cty.Bool), nil
			}
			return cty.False, nil
		},
	})
}
