package funcs

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// makeReplaceFunc builds Terraform's replace(str, substr, replace). When
// substr is wrapped in slashes, like "/a+/", Terraform treats what is inside
// as an RE2 regular expression and lets replace refer to its capture groups
// ($1, ${name}); otherwise every occurrence of substr is replaced literally.
// go-cty's stdlib has each half as its own function (RegexReplaceFunc and
// ReplaceFunc); this picks one per call.
func makeReplaceFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "str", Type: cty.String},
			{Name: "substr", Type: cty.String},
			{Name: "replace", Type: cty.String},
		},
		Type: function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			substr := args[1].AsString()
			if len(substr) > 1 && substr[0] == '/' && substr[len(substr)-1] == '/' {
				pattern := cty.StringVal(substr[1 : len(substr)-1])
				return stdlib.RegexReplaceFunc.Call([]cty.Value{args[0], pattern, args[2]})
			}
			return stdlib.ReplaceFunc.Call(args)
		},
	})
}
