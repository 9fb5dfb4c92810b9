package lang

import (
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// decodeAttributesOnly decodes a native-syntax body that has only
// attributes, against a schema without nested block types, without the
// content-extraction maps hcldec builds per call. It reports ok=false for
// anything out of the ordinary (a block, an unknown or missing argument,
// an evaluation or conversion error); the caller then decodes with hcldec,
// which produces the exact diagnostics.
func decodeAttributesOnly(body hcl.Body, schema *configschema.Block, ctx *hcl.EvalContext) (cty.Value, bool) {
	sb, ok := body.(*hclsyntax.Body)
	if !ok || len(sb.Blocks) > 0 || len(schema.BlockTypes) > 0 {
		return cty.NilVal, false
	}
	for name := range sb.Attributes {
		if _, declared := schema.Attributes[name]; !declared {
			return cty.NilVal, false
		}
	}
	vals := make(map[string]cty.Value, len(schema.Attributes))
	for name, a := range schema.Attributes {
		attr, present := sb.Attributes[name]
		if !present {
			if a.Required {
				return cty.NilVal, false
			}
			vals[name] = cty.NullVal(a.ImpliedType())
			continue
		}
		v, diags := attr.Expr.Value(ctx)
		if diags.HasErrors() {
			return cty.NilVal, false
		}
		v, err := convert.Convert(v, a.ImpliedType())
		if err != nil || (a.Required && v.IsNull()) {
			return cty.NilVal, false
		}
		vals[name] = v
	}
	return cty.ObjectVal(vals), true
}
