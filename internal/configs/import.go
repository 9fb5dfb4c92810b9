package configs

import (
	"fmt"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/zclconf/go-cty/cty"
)

// Import is an import block: adopt the existing remote object ID as the
// resource instance To when the next plan finds To not yet in state.
type Import struct {
	// ID is the provider's id of the object; Terraform 1.5 takes only a
	// constant here, so it is known when the configuration loads.
	ID string
	To addrs.AbsResourceInstance
	// ProviderConfigRef is the provider argument, nil when absent. It may
	// only repeat the target resource's own provider argument.
	ProviderConfigRef *ProviderConfigRef
	ProviderDeclRange hcl.Range
	DeclRange         hcl.Range
}

var importBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "provider"},
		{Name: "id", Required: true},
		{Name: "to", Required: true},
	},
}

// decodeImportBlock decodes one import block. It returns nil when the
// block is unusable, with diagnostics saying why.
func decodeImportBlock(block *hcl.Block) (*Import, hcl.Diagnostics) {
	content, diags := block.Body.Content(importBlockSchema)
	imp := &Import{DeclRange: block.DefRange}
	if attr, ok := content.Attributes["id"]; ok {
		// With no evaluation context a reference or a function call is
		// refused, as Terraform 1.5 refuses them.
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &imp.ID)...)
	}
	if attr, ok := content.Attributes["to"]; ok {
		diags = append(diags, decodeImportTo(attr, imp)...)
	}
	if attr, ok := content.Attributes["provider"]; ok {
		ref, ds := decodeProviderConfigRef(attr.Expr)
		diags = append(diags, ds...)
		imp.ProviderConfigRef, imp.ProviderDeclRange = ref, attr.Range
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return imp, diags
}

// decodeImportTo reads the to argument: a static resource instance
// address, not an expression to evaluate.
func decodeImportTo(attr *hcl.Attribute, imp *Import) hcl.Diagnostics {
	t, diags := hcl.AbsTraversalForExpr(attr.Expr)
	if diags.HasErrors() {
		return diags
	}
	to, ds := addrs.ParseAbsResourceInstance(t, traversalText(t))
	for _, d := range ds {
		if d.Subject == nil {
			d.Subject = attr.Expr.Range().Ptr()
		}
	}
	imp.To = to
	return ds
}

// addImport records an import block, refusing a second block for the
// same target as Terraform does.
func (b *moduleBuilder) addImport(imp *Import) {
	for _, prev := range b.mod.Imports {
		if prev.To.Equal(imp.To) {
			b.report(hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("Duplicate import configuration for %q", imp.To),
				Detail: fmt.Sprintf("An import block for the resource %q was already declared at %s. "+
					"A resource can have only one import block.", imp.To, posString(prev.DeclRange)),
				Subject: imp.DeclRange.Ptr(),
			}})
			return
		}
	}
	b.mod.Imports = append(b.mod.Imports, imp)
}

// checkImports runs once every resource is known: each import must target
// a managed resource of this module, and a provider argument may only
// repeat the target's own.
func (b *moduleBuilder) checkImports() {
	for _, imp := range b.mod.Imports {
		b.report(b.checkImport(imp))
	}
}

func (b *moduleBuilder) checkImport(imp *Import) hcl.Diagnostics {
	res := imp.To.Resource.Resource
	switch {
	case !imp.To.Module.IsRoot():
		return nil // checked once the module tree is loaded: checkModuleImports
	case res.Mode != addrs.ManagedResourceMode:
		return hcl.Diagnostics{importError("Invalid import address",
			"A managed resource address is required. Importing into a data resource is not allowed.", imp.DeclRange)}
	}
	target := b.mod.ResourceByAddr(res)
	if target == nil {
		return hcl.Diagnostics{importError("Import block target does not exist",
			fmt.Sprintf("The target for the given import block does not exist. Make sure the target resource "+
				"exists within your configuration. For example:\n\nresource %q %q {\n  # (resource arguments)\n}",
				res.Type, res.Name), imp.DeclRange)}
	}
	ref, tref := imp.ProviderConfigRef, target.ProviderConfigRef
	if ref != nil && (tref == nil || ref.Name != tref.Name || ref.Alias != tref.Alias) {
		return hcl.Diagnostics{importError("Invalid import provider argument",
			"The provider argument can only be specified in import blocks that will generate configuration.\n\n"+
				"Use the provider argument in the target resource block to configure the provider for a "+
				"resource with explicit provider configuration.", imp.ProviderDeclRange)}
	}
	return nil
}

func importError(summary, detail string, subject hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: subject.Ptr()}
}

// traversalText writes a static traversal back as source text, for
// diagnostics: awscc_logs_log_group.a["k"].
func traversalText(t hcl.Traversal) string {
	var b strings.Builder
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			b.WriteString(s.Name)
		case hcl.TraverseAttr:
			b.WriteString("." + s.Name)
		case hcl.TraverseIndex:
			if s.Key.Type() == cty.String {
				fmt.Fprintf(&b, "[%q]", s.Key.AsString())
			} else if s.Key.Type() == cty.Number {
				fmt.Fprintf(&b, "[%s]", s.Key.AsBigFloat().Text('f', -1))
			}
		}
	}
	return b.String()
}

// checkModuleImports checks the root module's import blocks that target a
// resource inside a module, once the tree is loaded: the module and the
// resource must be declared there.
func checkModuleImports(root *Module) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, imp := range root.Imports {
		if imp.To.Module.IsRoot() {
			continue
		}
		mod := root.Descendant(imp.To.Module.Module())
		res := imp.To.Resource.Resource
		switch {
		case res.Mode != addrs.ManagedResourceMode:
			out = append(out, importError("Invalid import address",
				"A managed resource address is required. Importing into a data resource is not allowed.", imp.DeclRange))
		case mod == nil || mod.ResourceByAddr(res) == nil:
			out = append(out, importError("Import block target does not exist",
				"The target for the given import block does not exist. The specified target is within a module, "+
					"and must be defined as a resource within that module before anything can be imported.", imp.DeclRange))
		}
	}
	return out
}
