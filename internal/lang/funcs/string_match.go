package funcs

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// makeStringMatchFunc builds startswith, endswith and strcontains, which
// Terraform 1.5 added and go-cty's stdlib does not have. Each takes the
// string to test and a second string, named by param as in Terraform's
// signature, and returns whether match(str, second) holds. Both arguments
// are compared as given: Terraform applies no case folding here.
//
// An unknown argument gives an unknown bool (cty's machinery), as in
// Terraform 1.5, which did not yet refine unknown results by known prefixes.
func makeStringMatchFunc(param string, match func(s, t string) bool) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "str", Type: cty.String},
			{Name: param, Type: cty.String},
		},
		Type: function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return cty.BoolVal(match(args[0].AsString(), args[1].AsString())), nil
		},
	})
}
