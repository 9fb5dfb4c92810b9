package configs

import (
	"fmt"

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
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "lifecycle"},
		{Type: "connection"},
		{Type: "provisioner", LabelNames: []string{"type"}},
	},
}

var removedLifecycleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "destroy"}},
}

// decodeRemovedBlock decodes one removed block. From names a whole
// resource or module call: instance keys are refused, as Terraform 1.7
// and OpenTofu refuse them. It returns nil when the block is unusable.
func decodeRemovedBlock(block *hcl.Block) (*Removed, hcl.Diagnostics) {
	content, diags := block.Body.Content(removedBlockSchema)
	r := &Removed{Destroy: true, DeclRange: block.DefRange}
	if attr, ok := content.Attributes["from"]; ok {
		from, ds := decodeMoveEndpoint(attr)
		diags = append(diags, ds...)
		switch {
		case ds.HasErrors():
		case from.Instance:
			diags = append(diags, removedKeyError(from, keyRange(attr.Expr)))
		case !from.IsModule() && from.Resource.Mode == addrs.DataResourceMode:
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Data source address is not allowed",
				Detail:  "Data sources cannot be destroyed, and therefore, 'removed' blocks are not allowed to target them. To remove data sources from the state, you should remove the data source block from the configuration.",
				Subject: attr.Expr.Range().Ptr()})
		}
		r.From = from
	}
	var lifecycle *hcl.Block
	var provisioners []*hcl.Block
	for _, blk := range content.Blocks {
		switch blk.Type {
		case "lifecycle":
			if lifecycle != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate lifecycle block",
					Detail:  fmt.Sprintf("The removed block already has a lifecycle block at %s.", posString(lifecycle.DefRange)),
					Subject: blk.DefRange.Ptr()})
				continue
			}
			lifecycle = blk
			lcContent, ds := blk.Body.Content(removedLifecycleSchema)
			diags = append(diags, ds...)
			if attr, ok := lcContent.Attributes["destroy"]; ok {
				diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &r.Destroy)...)
			}
		case "provisioner":
			provisioners = append(provisioners, blk)
		}
	}
	if !diags.HasErrors() {
		diags = append(diags, checkRemovedProvisioners(r, block, provisioners)...)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return r, diags
}

// checkRemovedProvisioners applies the rules for provisioners in a removed
// block (Terraform 1.9, OpenTofu 1.9): only destroy-time ones, only for a
// resource. With destroy = false they never run, so they are accepted with
// OpenTofu's warning; otherwise they would run on destroy, and Cairn does
// not run provisioners, so they are refused as in a resource block.
func checkRemovedProvisioners(r *Removed, block *hcl.Block, provisioners []*hcl.Block) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, blk := range provisioners {
		switch {
		case !provisionerWhenDestroy(blk):
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: `Invalid "removed.provisioner" block`,
				Detail:  `"removed" blocks can only contain destroy provisioners. "removed.provisioner.when = destroy" expected`,
				Subject: blk.DefRange.Ptr()})
		case r.From.IsModule():
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: `Invalid "removed" block`,
				Detail:  `"removed" blocks containing "provisioner"s can only target resources. Found one block that is targeting a module`,
				Subject: block.DefRange.Ptr()})
		case r.Destroy:
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unsupported block type",
				Detail: fmt.Sprintf("Cairn does not support provisioners yet, so the %q provisioner would "+
					"never run. Remove the block, or use Terraform for this configuration.", blk.Labels[0]),
				Subject: blk.TypeRange.Ptr()})
		}
	}
	if len(provisioners) > 0 && !r.Destroy && !diags.HasErrors() {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Removed block provisioners will not be executed",
			Detail:  "The 'removed' block has marked the resource to be forgotten and not destroyed. Therefore, the provisioners configured for it will not be executed.",
			Subject: block.DefRange.Ptr()})
	}
	return diags
}

// provisionerWhenDestroy reports whether a provisioner block says
// when = destroy.
func provisionerWhenDestroy(blk *hcl.Block) bool {
	content, _, _ := blk.Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "when"}}})
	attr, ok := content.Attributes["when"]
	if !ok {
		return false
	}
	t, ds := hcl.AbsTraversalForExpr(attr.Expr)
	return !ds.HasErrors() && len(t) == 1 && t.RootName() == "destroy"
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
