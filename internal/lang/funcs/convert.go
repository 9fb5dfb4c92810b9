package funcs

import (
	"fmt"
	"reflect"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/internal/lang/typeconv"
)

// typeArg is what convert's second argument decodes to: a type
// constraint written as in a variable's type, with the defaults of its
// optional attributes.
type typeArg struct {
	ty       cty.Type
	defaults *typeexpr.Defaults
}

// newTypeArgType returns a capsule type for convert's second parameter.
// Its customdecode extension makes hcl hand the argument's expression to
// TypeConstraintWithDefaults instead of evaluating it, so
// convert(x, list(string)) reads list(string) as a type. Each table gets
// its own (the decoder must name the type it belongs to).
func newTypeArgType() cty.Type {
	var typeArgType cty.Type
	typeArgType = cty.CapsuleWithOps("type constraint", reflect.TypeOf(typeArg{}), &cty.CapsuleOps{
		ExtensionData: func(key any) any {
			if key != customdecode.CustomExpressionDecoder {
				return nil
			}
			return customdecode.CustomExpressionDecoderFunc(func(expr hcl.Expression, _ *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
				ty, defaults, diags := typeexpr.TypeConstraintWithDefaults(expr)
				if diags.HasErrors() {
					return cty.NilVal, diags
				}
				return cty.CapsuleVal(typeArgType, &typeArg{ty: ty, defaults: defaults}), nil
			})
		},
		TypeGoString: func(reflect.Type) string { return "funcs.typeArgType" },
		GoString: func(raw any) string {
			return fmt.Sprintf("funcs.typeArg(%s)", typeexpr.TypeString(raw.(*typeArg).ty))
		},
		RawEquals: func(a, b any) bool { return a.(*typeArg).ty.Equals(b.(*typeArg).ty) },
	})
	return typeArgType
}

// makeConvertFunc builds convert(value, type) (Terraform 1.15): value
// converted to a type constraint written as in a variable's type, with
// the defaults of optional attributes filled in as for a variable. It
// converts with typeconv, as the to* functions do, so marks inside the
// value stay where they are and large collections take linear time.
func makeConvertFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "value", Type: cty.DynamicPseudoType, AllowNull: true, AllowUnknown: true, AllowMarked: true, AllowDynamicType: true},
			{Name: "type", Type: newTypeArgType()},
		},
		Type: func(args []cty.Value) (cty.Type, error) {
			want := args[1].EncapsulatedValue().(*typeArg)
			// Convertible, like go-cty's GetConversionUnsafe, says no when
			// there is nothing to convert.
			if got := args[0].Type(); !got.Equals(want.ty) && !typeconv.Convertible(got, want.ty) {
				return cty.NilType, function.NewArgErrorf(0, "%s", convert.MismatchMessage(args[0].Type(), want.ty))
			}
			if !want.ty.HasDynamicTypes() {
				return want.ty, nil
			}
			return cty.DynamicPseudoType, nil
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			want := args[1].EncapsulatedValue().(*typeArg)
			v := args[0]
			if want.defaults != nil {
				v = want.defaults.Apply(v)
			}
			out, err := typeconv.Convert(v, want.ty)
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			return out, nil
		},
	})
}
