package funcs

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// MaxSetProductElements is the most elements setproduct builds: 1,000,000.
// Its result grows as the product of its arguments' lengths, so three
// range(1024) calls ask for a billion elements, which go-cty allocates in
// one piece before anything else can refuse it, killing the process.
const MaxSetProductElements = 1_000_000

// makeSetProductFunc returns go-cty's setproduct, refusing beforehand a
// product with more than MaxSetProductElements elements.
func makeSetProductFunc() function.Function {
	inner := stdlib.SetProductFunc
	return function.New(&function.Spec{
		Description: inner.Description(),
		Params:      inner.Params(),
		VarParam:    inner.VarParam(),
		Type: func(args []cty.Value) (cty.Type, error) {
			return inner.ReturnTypeForValues(args)
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			n := 1
			for i, arg := range args {
				arg, _ = arg.Unmark()
				if !arg.IsKnown() || arg.IsNull() || !arg.CanIterateElements() {
					continue
				}
				l := arg.LengthInt()
				if l != 0 && n > MaxSetProductElements/l {
					return cty.NilVal, function.NewArgErrorf(i,
						"the product of these collections' lengths is more than %d elements, the most setproduct builds", MaxSetProductElements)
				}
				n *= l
			}
			return inner.Call(args)
		},
	})
}
