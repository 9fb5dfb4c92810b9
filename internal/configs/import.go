package configs

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// Import is an import block: adopt the existing remote object its id
// names as the resource instance To names, when the next plan finds that
// instance not yet in state.
//
// Since Terraform 1.6 id is an expression evaluated at plan time in the
// root module (variables, locals, data sources), and since 1.7 for_each
// repeats the block, each.key and each.value being usable in id and in the
// instance keys of to. So the block keeps its expressions; planning
// resolves them once the objects they refer to are known.
type Import struct {
	// Target is the resource the block imports into, without instance
	// keys: known statically, whatever the keys evaluate to.
	Target addrs.ConfigResource
	// To is the target instance when to has only constant keys; Static
	// says so. Duplicate blocks are refused at load for static targets.
	To     addrs.AbsResourceInstance
	Static bool
	// ToExpr, IDExpr and ForEach are the to, id and for_each arguments.
	// IdentityExpr is the identity argument (Terraform 1.12), which names
	// the object by its resource identity instead of an id: exactly one of
	// IDExpr and IdentityExpr is set.
	ToExpr, IDExpr, ForEach hcl.Expression
	IdentityExpr            hcl.Expression
	// ProviderConfigRef is the provider argument, nil when absent. It may
	// only repeat the target resource's own provider argument.
	ProviderConfigRef *ProviderConfigRef
	ProviderDeclRange hcl.Range
	DeclRange         hcl.Range
}

var importBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "provider"},
		{Name: "id"},
		{Name: "identity"},
		{Name: "to", Required: true},
		{Name: "for_each"},
	},
}

// decodeImportBlock decodes one import block. It returns nil when the
// block is unusable, with diagnostics saying why.
func decodeImportBlock(block *hcl.Block) (*Import, hcl.Diagnostics) {
	content, diags := block.Body.Content(importBlockSchema)
	imp := &Import{DeclRange: block.DefRange}
	if attr, ok := content.Attributes["id"]; ok {
		imp.IDExpr = attr.Expr
	}
	if attr, ok := content.Attributes["identity"]; ok {
		imp.IdentityExpr = attr.Expr
	}
	switch {
	case imp.IDExpr == nil && imp.IdentityExpr == nil:
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid import block",
			Detail: "At least one of 'id' or 'identity' must be specified.", Subject: block.DefRange.Ptr()})
	case imp.IDExpr != nil && imp.IdentityExpr != nil:
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid import block",
			Detail: "Only one of 'id' or 'identity' can be specified.", Subject: content.Attributes["identity"].Range.Ptr()})
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		imp.ForEach = attr.Expr
	}
	if attr, ok := content.Attributes["to"]; ok {
		diags = append(diags, decodeImportTo(attr, imp)...)
	}
	if attr, ok := content.Attributes["provider"]; ok {
		ref, ds := decodeProviderConfigRef(attr.Expr)
		diags = append(diags, ds...)
		if ref != nil && ref.KeyExpr != nil {
			// Cairn does not yet generate configuration through one
			// instance of a provider configuration with for_each.
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid import provider argument",
				Detail:   "Cairn does not support an instance key in an import block's provider argument yet. Declare the resource with provider = NAME.ALIAS[KEY] and import into it instead.",
				Subject:  ref.KeyExpr.Range().Ptr(),
			})
		}
		imp.ProviderConfigRef, imp.ProviderDeclRange = ref, attr.Range
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return imp, diags
}

// decodeImportTo reads the to argument: a resource instance address whose
// instance keys (of the module calls and the resource) may be
// expressions. Target is what it names without keys; To is set as well
// when every key is a constant.
func decodeImportTo(attr *hcl.Attribute, imp *Import) hcl.Diagnostics {
	imp.ToExpr = attr.Expr
	t, diags := ImportToTraversal(attr.Expr, func(hcl.Expression) (cty.Value, hcl.Diagnostics) { return cty.StringVal(""), nil })
	if diags.HasErrors() {
		return diags
	}
	to, ds := addrs.ParseAbsResourceInstance(t, traversalText(t))
	for _, d := range ds {
		if d.Subject == nil {
			d.Subject = attr.Expr.Range().Ptr()
		}
	}
	if ds.HasErrors() {
		return ds
	}
	imp.Target = to.ContainingResource().Config()
	if st, sds := hcl.AbsTraversalForExpr(attr.Expr); !sds.HasErrors() {
		imp.To, _ = addrs.ParseAbsResourceInstance(st, traversalText(st))
		imp.Static = true
	}
	return ds
}

// ImportToTraversal turns an import block's to expression into a
// traversal, calling key for each index whose key is not a constant
// (module.m[each.key].x.y[local.k]) to get its value. Anything but a
// reference with indexes is refused, with OpenTofu's message.
func ImportToTraversal(expr hcl.Expression, key func(hcl.Expression) (cty.Value, hcl.Diagnostics)) (hcl.Traversal, hcl.Diagnostics) {
	switch e := expr.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		return e.Traversal, nil
	case *hclsyntax.RelativeTraversalExpr:
		t, ds := ImportToTraversal(e.Source, key)
		return append(slices.Clip(t), e.Traversal...), ds
	case *hclsyntax.IndexExpr:
		t, ds := ImportToTraversal(e.Collection, key)
		if ds.HasErrors() {
			return nil, ds
		}
		v, kds := key(e.Key)
		ds = append(ds, kds...)
		return append(slices.Clip(t), hcl.TraverseIndex{Key: v, SrcRange: e.Key.Range()}), ds
	}
	return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid import address expression",
		Detail:  "Import address must be a reference to a resource's address, and only allows for indexing with dynamic keys. For example: module.my_module[expression1].aws_s3_bucket.my_buckets[expression2] for resources inside of modules, or simply aws_s3_bucket.my_bucket for a resource in the root module",
		Subject: expr.Range().Ptr()}}
}

// addImport records an import block, refusing a second block for the
// same target as Terraform does.
func (b *moduleBuilder) addImport(imp *Import) {
	for _, prev := range b.mod.Imports {
		if imp.Static && prev.Static && prev.ForEach == nil && imp.ForEach == nil && prev.To.Equal(imp.To) {
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
	res := imp.Target.Resource
	switch {
	case !imp.Target.Module.IsRoot():
		return nil // checked once the module tree is loaded: checkModuleImports
	case res.Mode != addrs.ManagedResourceMode:
		return hcl.Diagnostics{importError("Invalid import address",
			"A managed resource address is required. Importing into a data resource is not allowed.", imp.DeclRange)}
	}
	target := b.mod.ResourceByAddr(res)
	if target == nil {
		// plan -generate-config-out writes the block; a plan without
		// it refuses the import (planning), but init and validate
		// accept it, as in Terraform 1.5.7.
		return nil
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

// TraversalText writes a static traversal back as source text, for
// diagnostics: awscc_logs_log_group.a["k"].
func TraversalText(t hcl.Traversal) string { return traversalText(t) }

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
// resource inside a module, once the tree is loaded: a data resource is
// refused. A target the module does not declare is refused by a plan, as
// in Terraform 1.5.7, whose init and validate accept it.
func checkModuleImports(root *Module) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, imp := range root.Imports {
		if !imp.Target.Module.IsRoot() && imp.Target.Resource.Mode != addrs.ManagedResourceMode {
			out = append(out, importError("Invalid import address",
				"A managed resource address is required. Importing into a data resource is not allowed.", imp.DeclRange))
		}
	}
	return out
}
