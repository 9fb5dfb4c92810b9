package funcs

import (
	"errors"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// numericFunctions returns Terraform's numeric functions. All of them come
// from go-cty's stdlib; log and pow get a clear error for results that are
// not numbers (see rejectNaN).
func numericFunctions() map[string]function.Function {
	return map[string]function.Function{
		"abs":      stdlib.AbsoluteFunc,
		"ceil":     stdlib.CeilFunc,
		"floor":    stdlib.FloorFunc,
		"log":      rejectNaN(stdlib.LogFunc),
		"max":      stdlib.MaxFunc,
		"min":      stdlib.MinFunc,
		"parseint": stdlib.ParseIntFunc,
		"pow":      rejectNaN(stdlib.PowFunc),
		"signum":   stdlib.SignumFunc,
	}
}

// rejectNaN returns lib, a numeric function, with a plain error where lib
// panics. cty numbers cannot be NaN, so log(-1, 10) or pow(-1, 0.5) make
// stdlib panic while building the result; cty's machinery turns the panic
// into an error that carries a Go stack trace, which is no message for a
// user.
func rejectNaN(lib function.Function) function.Function {
	return function.New(&function.Spec{
		Description: lib.Description(),
		Params:      lib.Params(),
		Type:        function.StaticReturnType(cty.Number),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			v, err := lib.Call(args)
			var panicErr function.PanicError
			if errors.As(err, &panicErr) {
				return cty.NilVal, errors.New("the result is not a real number")
			}
			return v, err
		},
	})
}
