package lang

import (
	"sort"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// PreparedBlock is a configuration body analysed once for repeated
// evaluation against one schema: a resource with 10,000 instances finds its
// references and dynamic blocks once, not 10,000 times.
type PreparedBlock struct {
	body    hcl.Body
	schema  *configschema.Block
	refs    []*addrs.Reference
	dynamic bool
	diags   diags.Diagnostics
	// attrs is set when the body is only attributes the schema declares
	// (and the schema has no block types): such bodies are decoded by
	// evaluating these expressions directly.
	attrs hcl.Attributes
}

// PrepareBlock analyses body for evaluation with schema.
func PrepareBlock(body hcl.Body, schema *configschema.Block) *PreparedBlock {
	pb := &PreparedBlock{body: body, schema: schema, dynamic: hasDynamicBlocks(body), attrs: attributesOnly(body, schema)}
	spec := schema.DecoderSpec()
	if pb.attrs != nil {
		// hcldec.Variables builds a body schema per call; for a body of
		// known attributes their expressions' variables are the answer.
		names := make([]string, 0, len(pb.attrs))
		for name := range pb.attrs {
			names = append(names, name)
		}
		sort.Strings(names)
		var traversals []hcl.Traversal
		for _, name := range names {
			expr := pb.attrs[name].Expr
			traversals = append(traversals, withoutTypeArgs(expr, expr.Variables())...)
		}
		pb.refs, pb.diags = References(traversals)
		return pb
	}
	if pb.dynamic {
		pb.refs, pb.diags = References(withoutTypeArgs(body, dynblock.VariablesHCLDec(body, spec)))
	} else {
		pb.refs, pb.diags = References(withoutTypeArgs(body, hcldec.Variables(body, spec)))
	}
	return pb
}

// References returns the references the body makes.
func (pb *PreparedBlock) References() []*addrs.Reference { return pb.refs }

// EvalPrepared decodes a prepared body in this scope. The result has the
// schema's implied type.
func (s *Scope) EvalPrepared(pb *PreparedBlock) (cty.Value, diags.Diagnostics) {
	ds := pb.diags
	ctx, cds := s.EvalContext(pb.refs)
	ds = ds.Append(cds)
	if ds.HasErrors() {
		return cty.UnknownVal(pb.schema.ImpliedType()), ds
	}
	if pb.attrs != nil {
		if val, ok := decodeAttributesOnly(pb.attrs, pb.schema, ctx); ok {
			return val, ds
		}
	}
	body := pb.body
	if pb.dynamic {
		body = dynblock.Expand(body, ctx)
	}
	val, hd := hcldec.Decode(body, pb.schema.DecoderSpec(), ctx)
	ds = ds.Append(hd)
	if hd.HasErrors() {
		return cty.UnknownVal(pb.schema.ImpliedType()), ds
	}
	return val, ds
}

// hasDynamicBlocks reports whether a native-syntax body contains a dynamic
// block at any depth. Other syntaxes (JSON) are assumed to, which only
// costs the dynblock pass.
func hasDynamicBlocks(body hcl.Body) bool {
	sb, ok := body.(*hclsyntax.Body)
	if !ok {
		return true
	}
	for _, b := range sb.Blocks {
		if b.Type == "dynamic" || hasDynamicBlocks(b.Body) {
			return true
		}
	}
	return false
}

// Diagnostics returns problems found while analysing the body (invalid
// references), reported again by every evaluation.
func (pb *PreparedBlock) Diagnostics() diags.Diagnostics { return pb.diags }
