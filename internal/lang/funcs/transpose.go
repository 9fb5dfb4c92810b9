package funcs

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// makeTransposeFunc builds Terraform's transpose(map): given a map of lists
// of strings, it returns a map from each string to the list of keys whose
// lists contain it. Keys in each result list keep the order of the input's
// (sorted) keys. Neither library has it.
func makeTransposeFunc() function.Function {
	ty := cty.Map(cty.List(cty.String))
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "values", Type: ty}},
		Type:   function.StaticReturnType(ty),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			in := args[0]
			if !in.IsWhollyKnown() {
				return cty.UnknownVal(ty), nil
			}
			keysOf := make(map[string][]cty.Value)
			for it := in.ElementIterator(); it.Next(); {
				k, list := it.Element()
				if list.IsNull() {
					return cty.NilVal, function.NewArgErrorf(0, "input must not contain null list")
				}
				for _, v := range list.AsValueSlice() {
					if v.IsNull() {
						return cty.NilVal, function.NewArgErrorf(0, "input list must not contain null string")
					}
					keysOf[v.AsString()] = append(keysOf[v.AsString()], k)
				}
			}
			if len(keysOf) == 0 {
				return cty.MapValEmpty(cty.List(cty.String)), nil
			}
			out := make(map[string]cty.Value, len(keysOf))
			for v, keys := range keysOf {
				out[v] = cty.ListVal(keys)
			}
			return cty.MapVal(out), nil
		},
	})
}
