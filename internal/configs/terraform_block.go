package configs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

var terraformBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "required_version"},
		{Name: "experiments"},
		{Name: "language"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "required_providers"},
		{Type: "backend", LabelNames: []string{"type"}},
		{Type: "cloud"},
		{Type: "provider_meta", LabelNames: []string{"provider"}},
		{Type: "encryption"},
	},
}

// decodeTerraformBlock decodes a terraform block. A module may have several;
// their settings add up, except that only one backend may be declared.
func (b *moduleBuilder) decodeTerraformBlock(block *hcl.Block) {
	content, diags := block.Body.Content(terraformBlockSchema)
	b.report(diags)
	if attr, ok := content.Attributes["required_version"]; ok {
		vc, ok, ds := decodeVersionConstraint(attr.Name, attr.Expr)
		b.report(ds)
		if ok {
			b.mod.RequiredVersions = append(b.mod.RequiredVersions, vc)
		}
	}
	if attr, ok := content.Attributes["experiments"]; ok {
		b.report(hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Experiments are not supported",
			Detail: "Cairn implements the stable Terraform language only; language experiments are " +
				"available only in Terraform's alpha releases. Remove the experiments argument.",
			Subject: attr.NameRange.Ptr(),
		}})
	}
	if attr, ok := content.Attributes["language"]; ok {
		b.report(checkLanguageEdition(attr))
	}
	for _, blk := range content.Blocks {
		switch blk.Type {
		case "required_providers":
			b.decodeRequiredProviders(blk)
		case "backend":
			b.decodeBackend(blk)
		case "cloud":
			b.report(hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Unsupported block type",
				Detail: "Cairn does not support cloud blocks (HCP Terraform) yet; it keeps state with the " +
					"local backend. Remove the cloud block, or use backend \"local\".",
				Subject: blk.TypeRange.Ptr(),
			}})
		case "provider_meta":
			b.addProviderMeta(blk)
		case "encryption":
			b.decodeEncryption(blk)
		}
	}
}

// checkLanguageEdition accepts the only language edition Terraform 1.5
// knows, TF2021.
func checkLanguageEdition(attr *hcl.Attribute) hcl.Diagnostics {
	if hcl.ExprAsKeyword(attr.Expr) == "TF2021" {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Unsupported language edition",
		Detail:   "The only language edition Cairn supports is TF2021: write language = TF2021, or remove the argument.",
		Subject:  attr.Expr.Range().Ptr(),
	}}
}

// decodeBackend records the backend block. Cairn has the local, pg and
// s3 backends; accepting another type would silently keep state somewhere
// the user did not ask for. The block's arguments are decoded by the
// command layer, which knows each backend's settings and environment.
func (b *moduleBuilder) decodeBackend(block *hcl.Block) {
	if prev := b.backendDecl; prev != nil {
		b.report(hcl.Diagnostics{duplicateDiag("Duplicate backend configuration", "A backend",
			"A module has at most one backend: remove one of the two backend blocks.",
			*prev, block.DefRange)})
		return
	}
	b.backendDecl = block.DefRange.Ptr()
	typ := block.Labels[0]
	if typ != "local" && typ != "pg" && typ != "s3" {
		b.report(hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Unsupported backend type",
			Detail: fmt.Sprintf("Cairn supports the \"local\", \"pg\" and \"s3\" backends, not %q. Use "+
				"one of those, or remove the backend block to keep state in terraform.tfstate.", typ),
			Subject: block.LabelRanges[0].Ptr(),
		}})
		return
	}
	b.mod.Backend = &Backend{
		Type:      typ,
		Config:    block.Body,
		TypeRange: block.LabelRanges[0],
		DeclRange: block.DefRange,
	}
}

// decodeEncryption keeps OpenTofu's encryption block for the command
// layer, which decodes it with package encryption once variables are
// known (a passphrase may come from one). A module has at most one.
func (b *moduleBuilder) decodeEncryption(block *hcl.Block) {
	if prev := b.mod.Encryption; prev != nil {
		b.report(hcl.Diagnostics{duplicateDiag("Duplicate encryption configuration", "An encryption block",
			"A module has at most one encryption block: merge the two.", prev.DeclRange, block.DefRange)})
		return
	}
	b.mod.Encryption = &Encryption{Body: block.Body, DeclRange: block.DefRange}
}
