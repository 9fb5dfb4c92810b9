package funcs

import (
	"errors"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/internal/hclscan"
)

// BuiltinProviderFunctions names the functions of the built-in provider
// terraform.io/builtin/terraform (Terraform 1.8, OpenTofu 1.7), called as
// provider::terraform::NAME by a module that declares that provider in
// its required_providers.
var BuiltinProviderFunctions = []string{"decode_tfvars", "encode_expr", "encode_tfvars"}

// ProviderFunctionPrefix is the namespace of provider-defined functions.
const ProviderFunctionPrefix = "provider::"

// builtinProviderFunctions returns the built-in provider's functions by
// their names in the table ("provider::terraform::encode_tfvars").
func builtinProviderFunctions() map[string]function.Function {
	return map[string]function.Function{
		ProviderFunctionPrefix + "terraform::decode_tfvars": makeDecodeTFVarsFunc(),
		ProviderFunctionPrefix + "terraform::encode_expr":   makeEncodeExprFunc(),
		ProviderFunctionPrefix + "terraform::encode_tfvars": makeEncodeTFVarsFunc(),
	}
}

// errDecodeTFVars starts every decode_tfvars error, as in OpenTofu.
var errDecodeTFVars = errors.New("failed to decode tfvars content")

// makeDecodeTFVarsFunc builds decode_tfvars(content): the attributes of a
// .tfvars file's content as an object, each value of the most general
// type its syntax gives (tuples and objects, never lists or maps). The
// content may hold only constant values: no references, no calls.
func makeDecodeTFVarsFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "content", Type: cty.String}},
		Type:   function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			src := []byte(args[0].AsString())
			const name = "<decode_tfvars argument>"
			if d := hclscan.CheckDepth(src, name, hcl.InitialPos, hclscan.Native); d != nil {
				return cty.NilVal, errors.Join(errDecodeTFVars, d)
			}
			f, diags := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
			if diags.HasErrors() {
				return cty.NilVal, errors.Join(append([]error{errDecodeTFVars}, diags.Errs()...)...)
			}
			attrs, diags := f.Body.JustAttributes()
			if diags.HasErrors() {
				return cty.NilVal, errors.Join(append([]error{errDecodeTFVars}, diags.Errs()...)...)
			}
			vals := make(map[string]cty.Value, len(attrs))
			for name, attr := range attrs {
				v, diags := attr.Expr.Value(nil)
				if diags.HasErrors() {
					return cty.NilVal, errors.Join(append([]error{errDecodeTFVars}, diags.Errs()...)...)
				}
				vals[name] = v
			}
			return cty.ObjectVal(vals), nil
		},
	})
}

// makeEncodeTFVarsFunc builds encode_tfvars(input): an object as the
// content of a .tfvars file, one attribute a line in hclwrite's layout.
// The object's attribute names must be valid identifiers.
func makeEncodeTFVarsFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "input", Type: cty.DynamicPseudoType, AllowNull: true, AllowDynamicType: true}},
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			v := args[0]
			switch {
			case v.IsNull():
				return cty.NilVal, errors.New("invalid input: must not be null")
			case !v.Type().IsObjectType():
				return cty.NilVal, errors.New("invalid input: must be an object")
			case !v.IsWhollyKnown():
				return cty.UnknownVal(cty.String).RefineNotNull(), nil
			}
			f := hclwrite.NewEmptyFile()
			for it := v.ElementIterator(); it.Next(); {
				k, attr := it.Element()
				name := k.AsString()
				if !hclsyntax.ValidIdentifier(name) {
					return cty.NilVal, fmt.Errorf("invalid input: object key: %s - must be a valid identifier", name)
				}
				f.Body().SetAttributeValue(name, attr)
			}
			return cty.StringVal(string(f.Bytes())), nil
		},
	})
}

// makeEncodeExprFunc builds encode_expr(expr): any wholly known value as
// the language's expression syntax for it.
func makeEncodeExprFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "expr", Type: cty.DynamicPseudoType, AllowNull: true}},
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if !args[0].IsWhollyKnown() {
				return cty.NilVal, errors.New("input is not wholly known")
			}
			f := hclwrite.NewEmptyFile()
			f.Body().AppendUnstructuredTokens(hclwrite.TokensForValue(args[0]))
			return cty.StringVal(string(f.Bytes())), nil
		},
	})
}
