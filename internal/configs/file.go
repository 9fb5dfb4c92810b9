package configs

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/hashicorp/hcl/v2"
)

// fileSchema lists the top-level blocks of a configuration file: the ones
// Cairn decodes and the Terraform 1.5 ones it recognises but does not
// support yet, so those get a clearer message than an unknown block type.
var fileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "terraform"},
		{Type: "provider", LabelNames: []string{"name"}},
		{Type: "variable", LabelNames: []string{"name"}},
		{Type: "locals"},
		{Type: "output", LabelNames: []string{"name"}},
		{Type: "resource", LabelNames: []string{"type", "name"}},
		{Type: "data", LabelNames: []string{"type", "name"}},
		{Type: "ephemeral", LabelNames: []string{"type", "name"}},
		{Type: "module", LabelNames: []string{"name"}},
		{Type: "check", LabelNames: []string{"name"}},
		{Type: "moved"},
		{Type: "import"},
		{Type: "removed"},
	},
}

// decodeFile decodes the top-level blocks of one file into the module.
func (b *moduleBuilder) decodeFile(body hcl.Body) {
	content, diags := body.Content(fileSchema)
	b.report(diags)
	for _, block := range content.Blocks {
		switch block.Type {
		case "terraform":
			b.decodeTerraformBlock(block)
		case "provider":
			p, ds := decodeProviderBlock(block)
			b.report(ds)
			if p != nil {
				b.addProvider(p)
			}
		case "variable":
			v, ds := decodeVariableBlock(block)
			b.report(ds)
			if v != nil {
				b.addVariable(v)
			}
		case "locals":
			ls, ds := decodeLocalsBlock(block)
			b.report(ds)
			for _, l := range ls {
				b.addLocal(l)
			}
		case "output":
			o, ds := b.decodeOutput(block)
			b.report(ds)
			if o != nil {
				b.addOutput(o)
			}
		case "resource":
			b.decodeResource(block, addrs.ManagedResourceMode)
		case "data":
			b.decodeResource(block, addrs.DataResourceMode)
		case "ephemeral":
			b.decodeResource(block, addrs.EphemeralResourceMode)
		case "module":
			mc, ds := decodeModuleBlock(block, b.overriding)
			b.report(ds)
			if mc != nil {
				b.addModuleCall(mc)
			}
		case "check":
			b.decodeCheck(block)
		case "moved":
			m, ds := decodeMovedBlock(block)
			b.report(ds)
			if m != nil {
				b.mod.Moved = append(b.mod.Moved, m)
			}
		case "removed":
			r, ds := decodeRemovedBlock(block)
			b.report(ds)
			if r != nil {
				b.mod.Removed = append(b.mod.Removed, r)
			}
		case "import":
			imp, ds := decodeImportBlock(block)
			b.report(ds)
			if imp != nil {
				b.addImport(imp)
			}
		default:
			b.report(unsupportedBlock(block))
		}
	}
}

// decodeOutput decodes an output block; in an override file the value is
// optional, since the override may change only the description.
func (b *moduleBuilder) decodeOutput(block *hcl.Block) (*Output, hcl.Diagnostics) {
	if b.overriding {
		return decodeOutput(block, optionalSchema(outputBlockSchema))
	}
	return decodeOutputBlock(block)
}

// decodeCheck decodes a check block. An override file may not hold one,
// and Terraform then reports only that, not problems inside the block.
func (b *moduleBuilder) decodeCheck(block *hcl.Block) {
	if b.overriding {
		b.addCheck(&Check{DeclRange: block.DefRange})
		return
	}
	c, ds := decodeCheckBlock(block)
	b.report(ds)
	if c != nil {
		b.addCheck(c)
	}
}

func (b *moduleBuilder) decodeResource(block *hcl.Block, mode addrs.ResourceMode) {
	r, ds := decodeResourceBlock(block, mode)
	b.report(ds)
	if r != nil {
		b.addResource(r)
	}
}

// unsupportedBlock reports a Terraform block type that Cairn does not
// implement yet. Ignoring one silently would plan something other than
// what the configuration says.
func unsupportedBlock(block *hcl.Block) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Unsupported block type",
		Detail: fmt.Sprintf("Cairn does not support %s blocks yet. Remove the block, or use Terraform "+
			"for this configuration until Cairn supports it.", block.Type),
		Subject: block.TypeRange.Ptr(),
		Context: block.DefRange.Ptr(),
	}}
}
