package funcs

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/internal/configschema"
)

// makeSensitiveFunc builds sensitive(value): value, marked sensitive. Any
// value qualifies: unknown, null, or already marked, whose marks stay.
func makeSensitiveFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{
			Name:             "value",
			Type:             cty.DynamicPseudoType,
			AllowUnknown:     true,
			AllowNull:        true,
			AllowMarked:      true,
			AllowDynamicType: true,
		}},
		Type: func(args []cty.Value) (cty.Type, error) {
			return args[0].Type(), nil
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return args[0].Mark(configschema.SensitiveMark), nil
		},
	})
}

// makeNonsensitiveFunc builds nonsensitive(value): value without its own
// sensitive mark. Marks nested inside value stay, and so do other marks.
//
// As in Terraform 1.5, a known value that is not itself sensitive is an
// error: the call would do nothing, which usually means the author expected
// it to unmark something it cannot reach (a sensitive attribute inside an
// object). An unknown value passes, because before apply a value's marks
// may not all be known yet.
func makeNonsensitiveFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{
			Name:             "value",
			Type:             cty.DynamicPseudoType,
			AllowUnknown:     true,
			AllowNull:        true,
			AllowMarked:      true,
			AllowDynamicType: true,
		}},
		Type: func(args []cty.Value) (cty.Type, error) {
			return args[0].Type(), nil
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			v := args[0]
			if v.IsKnown() && !v.HasMark(configschema.SensitiveMark) {
				return cty.NilVal, function.NewArgErrorf(0, "the given value is not sensitive, so this call is redundant")
			}
			v, marks := v.Unmark()
			delete(marks, configschema.SensitiveMark)
			return v.WithMarks(marks), nil
		},
	})
}
