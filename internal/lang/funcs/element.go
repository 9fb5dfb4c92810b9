package funcs

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// makeElementFunc builds element(list, index) from go-cty stdlib's, which
// since go-cty 1.14 counts a negative index back from the end of the list.
// Terraform 1.5 rejects a negative index, and so does Cairn, so that a
// configuration means the same thing under both.
func makeElementFunc() function.Function {
	lib := stdlib.ElementFunc
	return function.New(&function.Spec{
		Description: lib.Description(),
		Params:      lib.Params(),
		Type: func(args []cty.Value) (cty.Type, error) {
			if idx := args[1]; idx.IsKnown() && !idx.IsNull() && idx.LessThan(cty.Zero).True() {
				return cty.NilType, function.NewArgErrorf(1, "cannot use element function with a negative index")
			}
			return lib.ReturnTypeForValues(args)
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return lib.Call(args)
		},
	})
}
