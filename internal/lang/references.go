package lang

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
)

// ReferencesInExpr returns the references an expression makes. A nil
// expression makes none.
func ReferencesInExpr(expr hcl.Expression) ([]*addrs.Reference, diags.Diagnostics) {
	if expr == nil {
		return nil, nil
	}
	return References(withoutTypeArgs(expr, expr.Variables()))
}

// ReferencesInBlock returns the references a body makes when decoded with
// schema, including those inside dynamic blocks' for_each and content.
func ReferencesInBlock(body hcl.Body, schema *configschema.Block) ([]*addrs.Reference, diags.Diagnostics) {
	if body == nil {
		return nil, nil
	}
	return References(withoutTypeArgs(body, dynblock.VariablesHCLDec(body, schema.DecoderSpec())))
}

// References interprets traversals as references, reporting each that is
// not one.
func References(traversals []hcl.Traversal) ([]*addrs.Reference, diags.Diagnostics) {
	var ds diags.Diagnostics
	out := make([]*addrs.Reference, 0, len(traversals))
	for _, t := range traversals {
		ref, hd := addrs.ParseRef(t)
		ds = ds.Append(hd)
		if ref != nil {
			out = append(out, ref)
		}
	}
	return out, ds
}
