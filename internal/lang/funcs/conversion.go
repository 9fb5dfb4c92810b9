package funcs

import (
	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/cairn-iac/cairn/internal/lang/typeconv"
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
// stdlib's MakeToFunc, changing two things. The argument may be marked, and
// marks inside it stay where they are: stdlib's version lets the machinery
// unmark the whole value and mark the whole result, so that
// tomap({a = sensitive(x), b = y}) would be wholly sensitive; Terraform keeps
// b non-sensitive, which is what lets such a map drive for_each. And
// converting is typeconv's, linear in the elements where go-cty's convert,
// which stdlib uses, is quadratic for a tuple to a list or set and an object
// to a map: toset of 20,000 strings took ten seconds.
//
// Type checking and error messages are stdlib's. A collection that does not
// convert gets stdlib's message for it without asking stdlib, which would
// spend the quadratic time again only to say so.
func makeToFunc(want cty.Type) function.Function {
	lib := stdlib.MakeToFunc(want)
	param := lib.Params()[0]
	param.AllowMarked = true
	param.AllowUnknown = true
	return function.New(&function.Spec{
		Description: lib.Description(),
		Params:      []function.Parameter{param},
		Type: func(args []cty.Value) (cty.Type, error) {
			if typeconv.Convertible(args[0].Type(), want) {
				return want, nil
			}
			if want.IsCollectionType() {
				return cty.NilType, cannotConvert(args[0].Type(), want)
			}
			return lib.ReturnTypeForValues(args)
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			out, err := typeconv.Convert(args[0], retType)
			switch {
			case err == nil:
				return out, nil
			case want.IsCollectionType():
				return cty.NilVal, cannotConvert(args[0].Type(), want)
			}
			// stdlib's function gives the message that fits an explicit
			// conversion of a primitive value.
			return lib.Call(args)
		},
	})
}

// cannotConvert is stdlib's MakeToFunc error for a value of type got that
// does not convert to want, a collection type.
func cannotConvert(got, want cty.Type) error {
	return function.NewArgErrorf(0, "cannot convert %s to %s", got.FriendlyName(), want.FriendlyNameForConstraint())
}
