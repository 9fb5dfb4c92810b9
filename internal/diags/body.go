package diags

import (
	"math/big"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// InBody resolves the attribute paths of diagnostics that have no range into
// ranges within body (a resource's configuration body), so a provider's
// complaint about ["tags"]["Name"] points at the line that set it. When the
// path cannot be followed to an attribute, the diagnostic gets the range of
// the deepest block found, or fallback. A diagnostic about the whole body
// (no path: "the file at given path cannot be read") points where
// Terraform points it, at the body's opening brace (hcl's
// MissingItemRange), when body is native syntax.
func (ds Diagnostics) InBody(body hcl.Body, fallback hcl.Range) Diagnostics {
	if len(ds) == 0 {
		return nil
	}
	out := make(Diagnostics, len(ds))
	for i, d := range ds {
		if d.Subject == nil {
			rng := rangeOfPath(body, d.Path, fallback)
			if sb, ok := body.(*hclsyntax.Body); ok && len(d.Path) == 0 {
				rng = sb.MissingItemRange()
			}
			d.Subject = &rng
		}
		out[i] = d
	}
	return out
}

// rangeOfPath walks a native-syntax body along path, descending into nested
// blocks; JSON bodies and unknown shapes fall back to the closest range found.
func rangeOfPath(body hcl.Body, path cty.Path, fallback hcl.Range) hcl.Range {
	sb, ok := body.(*hclsyntax.Body)
	if !ok || len(path) == 0 {
		return fallback
	}
	step, ok := path[0].(cty.GetAttrStep)
	if !ok {
		return fallback
	}
	if attr, ok := sb.Attributes[step.Name]; ok {
		return attr.Expr.Range()
	}
	var matches []*hclsyntax.Block
	for _, b := range sb.Blocks {
		if b.Type == step.Name {
			matches = append(matches, b)
		}
	}
	if len(matches) == 0 {
		return fallback
	}
	rest := path[1:]
	blk := matches[0]
	if len(rest) > 0 {
		if idx, ok := rest[0].(cty.IndexStep); ok {
			if blk = blockAt(matches, idx.Key); blk == nil {
				// No block written here is that element (a dynamic block
				// made it, or it is a set element): the enclosing range is
				// the closest honest answer, not some other block.
				return fallback
			}
			rest = rest[1:]
		}
	}
	return rangeOfPath(blk.Body, rest, blk.DefRange())
}

// blockAt returns the block a path index step names: by position for list
// blocks, by label for map blocks; nil when none matches.
func blockAt(blocks []*hclsyntax.Block, key cty.Value) *hclsyntax.Block {
	if !key.IsKnown() || key.IsNull() {
		return nil
	}
	switch key.Type() {
	case cty.Number:
		n, acc := key.AsBigFloat().Int64()
		if acc == big.Exact && n >= 0 && n < int64(len(blocks)) {
			return blocks[n]
		}
	case cty.String:
		for _, b := range blocks {
			if len(b.Labels) > 0 && b.Labels[0] == key.AsString() {
				return b
			}
		}
	}
	return nil
}
