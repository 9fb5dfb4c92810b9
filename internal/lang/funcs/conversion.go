package funcs

import (
	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// typeConversionFunctions returns Terraform's type conversion functions: try
// and can from hcl's tryfunc extension, the to* functions built on go-cty
// stdlib's MakeToFunc (see makeToFunc), and sensitive and nonsensitive,
// which are Cairn's (sensitive.go).
func typeConversionFunctions() map[string]function.Function {
	return map[string]function.Function{
		"can":          tryfunc.CanFunc,
		"nonsensitive": makeNonsensitiveFunc(),
		"sensitive":    makeSensitiveFunc(),
		"tobool":       makeToFunc(cty.Bool),
		"tolist":       makeToFunc(cty.List(cty.DynamicPseudoType)),
		"tomap":        makeToFunc(cty.Map(cty.DynamicPseudoType)),
		"tonumber":     makeToFunc(cty.Number),
		"toset":        makeToFunc(cty.Set(cty.DynamicPseudoType)),
		"tostring":     makeToFunc(cty.String),
		"try":          tryfunc.TryFunc,
	}
}

// makeToFunc builds the conversion function to type want from go-cty
// stdlib's MakeToFunc, changing one thing: the argument may be marked, and
// marks inside it stay where they are. stdlib's version lets the machinery
// unmark the whole value and mark the whole result, so that
// tomap({a = sensitive(x), b = y}) would be wholly sensitive; Terraform keeps
// b non-sensitive, which is what lets such a map drive for_each.
//
// Type checking and error messages are stdlib's; converting is cty's
// convert package, which carries nested marks across.
func makeToFunc(want cty.Type) function.Function {
	lib := stdlib.MakeToFunc(want)
	param := lib.Params()[0]
	param.AllowMarked = true
	param.AllowUnknown = true
	return function.New(&function.Spec{
		Description: lib.Description(),
		Params:      []function.Parameter{param},
		Type: func(args []cty.Value) (cty.Type, error) {
			return lib.ReturnTypeForValues(args)
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			if out, err := convert.Convert(args[0], retType); err == nil {
				return out, nil
			}
			// Conversion failed; stdlib's function gives the message that
			// fits an explicit conversion.
			return lib.Call(args)
		},
	})
}
