package render

import (
	"strings"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// functionsFormatVersion is the format of `metadata functions -json`
// that Terraform 1.5.7 and OpenTofu 1.12.6 write.
const functionsFormatVersion = "1.0"

// FunctionsJSON describes functions as `terraform metadata functions
// -json` does, for editors and language servers: per function its
// description, return type, parameters (name, description, type, and
// is_nullable when null is accepted) and variadic parameter. Provider
// functions (provider::NAME::FUNC) are left out: they belong to a
// provider's schema, not to the language.
//
// The return type is the function's result for arguments of its
// parameters' declared types; dynamic when that cannot be told without
// values (try, whose result is its first argument that works). A
// parameter that takes an expression rather than a value (try's and
// can's) is of type dynamic: its type, a capsule, has no JSON form.
func FunctionsJSON(fns map[string]function.Function) *tfjson.MetadataFunctions {
	out := &tfjson.MetadataFunctions{FormatVersion: functionsFormatVersion, Signatures: make(map[string]*tfjson.FunctionSignature, len(fns))}
	for name, f := range fns {
		if !strings.HasPrefix(name, "provider::") {
			out.Signatures[name] = functionSignature(f)
		}
	}
	return out
}

// functionSignature describes one function.
func functionSignature(f function.Function) *tfjson.FunctionSignature {
	sig := &tfjson.FunctionSignature{Description: f.Description()}
	params := f.Params()
	args := make([]cty.Type, 0, len(params)+1)
	for i := range params {
		sig.Parameters = append(sig.Parameters, functionParameter(&params[i]))
		args = append(args, params[i].Type)
	}
	if vp := f.VarParam(); vp != nil {
		sig.VariadicParameter = functionParameter(vp)
		args = append(args, vp.Type)
	}
	// ReturnType recovers a function's panic as an error, so a function
	// that needs values (try reads its expressions) cannot stop the
	// listing.
	ret, err := f.ReturnType(args)
	if err != nil {
		ret = cty.DynamicPseudoType
	}
	sig.ReturnType = ret
	return sig
}

func functionParameter(p *function.Parameter) *tfjson.FunctionParameter {
	ty := p.Type
	if ty.IsCapsuleType() {
		ty = cty.DynamicPseudoType
	}
	return &tfjson.FunctionParameter{Name: p.Name, Description: p.Description, IsNullable: p.AllowNull, Type: ty}
}
