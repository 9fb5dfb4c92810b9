package configs

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
)

// Removed is a removed block (Terraform 1.7): the resource or module call
// From is gone from the configuration, and with destroy = false its
// objects are forgotten (dropped from state) instead of destroyed.
type Removed struct {
	From addrs.MoveEndpoint
	// Destroy is the lifecycle block's destroy argument, true when absent.
	Destroy   bool
	DeclRange hcl.Range
}

var removedBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "from", Required: true}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "lifecycle"}},
}

var removedLifecycleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "destroy"}},
}

// decodeRemovedBlock decodes one removed block. From names a whole
// resource or module call: instance keys are refused, as Terraform 1.7
// refuses them. It returns nil when the block is unusable.
func decodeRemovedBlock(block *hcl.Block) (*Removed, hcl.Diagnostics) {
	content, diags := block.Body.Content(removedBlockSchema)
	r := &Removed{Destroy: true, DeclRange: block.DefRange}
	if attr, ok := content.Attributes["from"]; ok {
		from, ds := decodeMoveEndpoint(attr)
		diags = append(diags, ds...)
		if !ds.HasErrors() && from.Instance {
			diags = append(diags, removedKeyError(from, keyRange(attr.Expr)))
		}
		r.From = from
	}
	for _, lc := range content.Blocks {
		lcContent, ds := lc.Body.Content(removedLifecycleSchema)
		diags = append(diags, ds...)
		if attr, ok := lcContent.Attributes["destroy"]; ok {
			diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &r.Destroy)...)
		}
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return r, diags
}

// keyRange is the range of the instance key that ends a static address
// expression, where Terraform points when refusing one.
func keyRange(expr hcl.Expression) hcl.Range {
	t, ds := hcl.AbsTraversalForExpr(expr)
	if ds.HasErrors() || len(t) == 0 {
		return expr.Range()
	}
	return t[len(t)-1].SourceRange()
}

func removedKeyError(from addrs.MoveEndpoint, rng hcl.Range) *hcl.Diagnostic {
	if from.IsModule() {
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Module instance keys not allowed",
			Detail:  "Module address must be a module (e.g. \"module.foo\"), not a module instance (e.g. \"module.foo[1]\").",
			Subject: rng.Ptr()}
	}
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Resource instance keys not allowed",
		Detail:  "Resource address must be a resource (e.g. \"test_instance.foo\"), not a resource instance (e.g. \"test_instance.foo[1]\").",
		Subject: rng.Ptr()}
}
