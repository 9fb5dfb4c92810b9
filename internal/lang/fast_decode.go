package lang

import (
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// attributesOnly returns the attributes of a native-syntax body that has
// no blocks (not even hidden meta-argument blocks) and only arguments the
// schema declares, when the schema has no block types; otherwise nil.
// Such bodies can skip hcldec's per-call schema and content maps.
func attributesOnly(body hcl.Body, schema *configschema.Block) hcl.Attributes {
	sb, ok := body.(*hclsyntax.Body)
	if !ok || len(sb.Blocks) > 0 || len(schema.BlockTypes) > 0 {
		return nil
	}
	attrs, diags := sb.JustAttributes()
	if diags.HasErrors() {
		return nil
	}
	for name := range attrs {
		if _, declared := schema.Attributes[name]; !declared {
			return nil
		}
	}
	return attrs
}

// decodeAttributesOnly evaluates prepared attributes into an object of the
// schema's type. It reports ok=false for anything out of the ordinary (a
// missing required argument, an evaluation or conversion error); the
// caller then decodes with hcldec, which produces the exact diagnostics.
func decodeAttributesOnly(attrs hcl.Attributes, schema *configschema.Block, ctx *hcl.EvalContext) (cty.Value, bool) {
	vals := make(map[string]cty.Value, len(schema.Attributes))
	for name, a := range schema.Attributes {
		attr, present := attrs[name]
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
		if want := a.ImpliedType(); want != cty.DynamicPseudoType && !v.Type().Equals(want) {
			var err error
			if v, err = convert.Convert(v, want); err != nil {
				return cty.NilVal, false
			}
		}
		if a.Required && v.IsNull() {
			return cty.NilVal, false
		}
		vals[name] = v
	}
	return cty.ObjectVal(vals), true
}
