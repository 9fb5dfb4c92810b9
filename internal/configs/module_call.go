package configs

import (
	"fmt"
	"strings"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// ModuleCall is a module block: a call of a child module, whose
// configuration the loader reads from SourceAddr into Module.
type ModuleCall struct {
	Name string
	// SourceAddr is the source argument as written: a local path
	// beginning with ./ or ../, or an address "cairn init" installs
	// (registry, git, HTTP archive...), found through InstalledModules.
	SourceAddr      string
	SourceAddrRange hcl.Range
	// Version is the version argument as written (a registry module's
	// constraint), empty when absent; VersionRange is its expression.
	Version      string
	VersionRange hcl.Range
	// SourceExpr and VersionExpr are the source and version when they
	// refer to variables or locals or call functions (OpenTofu 1.8's
	// early evaluation, Terraform 1.15's const variables), nil when
	// written as literals. ResolveCall evaluates them into SourceAddr and
	// Version once the module's static values are known.
	SourceExpr, VersionExpr hcl.Expression
	// Config holds the call's other arguments: the child's input
	// variables.
	Config hcl.Body
	// Count and ForEach are nil when absent; at most one is set.
	Count   hcl.Expression
	ForEach hcl.Expression
	// Enabled is lifecycle.enabled (OpenTofu 1.11), nil when absent:
	// true is one instance without a key, false none.
	Enabled hcl.Expression
	// lifecycleBlock: the call has a lifecycle block, which the native
	// syntax's JustAttributes on the remaining body still reports.
	lifecycleBlock bool
	// DependsOn makes everything in the child wait for these objects.
	DependsOn []hcl.Traversal
	// Providers is the providers argument: which of the caller's provider
	// configurations the child sees under which name. When it is set, the
	// child inherits no others.
	Providers    []PassedProvider
	ProvidersSet bool
	// Arguments are the input arguments by variable name, set once the
	// child is loaded and they are checked against its variables.
	Arguments hcl.Attributes
	// Module is the child's configuration, set by the loader; nil when it
	// could not be loaded.
	Module *Module

	DeclRange hcl.Range
	NameRange hcl.Range
}

// PassedProvider is one entry of a module call's providers argument:
// InChild = InParent.
type PassedProvider struct {
	InChild  *ProviderConfigRef
	InParent *ProviderConfigRef
}

var moduleBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "source", Required: true},
		{Name: "version"},
		{Name: "count"},
		{Name: "for_each"},
		{Name: "depends_on"},
		{Name: "providers"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		// Reserved by Terraform for future use inside module blocks.
		{Type: "lifecycle"},
		{Type: "locals"},
		{Type: "provider", LabelNames: []string{"type"}},
	},
}

// decodeModuleBlock decodes a module block. Its input arguments stay in
// Config, to be checked against the child's variables once it is loaded.
// In an override file (optional set) the source may be left out.
func decodeModuleBlock(block *hcl.Block, optional bool) (*ModuleCall, hcl.Diagnostics) {
	mc := &ModuleCall{Name: block.Labels[0], DeclRange: block.DefRange, NameRange: block.LabelRanges[0]}
	diags := checkName(mc.Name, "module", mc.NameRange)
	schema := moduleBlockSchema
	if optional {
		schema = optionalSchema(schema)
	}
	content, remain, ds := block.Body.PartialContent(schema)
	diags = append(diags, ds...)
	mc.Config = remain
	if attr, ok := content.Attributes["source"]; ok {
		diags = append(diags, mc.decodeSource(attr)...)
	}
	if attr, ok := content.Attributes["version"]; ok {
		diags = append(diags, mc.decodeVersion(attr)...)
	}
	if attr, ok := content.Attributes["count"]; ok {
		mc.Count = attr.Expr
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		if mc.Count != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  `Invalid combination of "count" and "for_each"`,
				Detail:   `The "count" and "for_each" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created.`,
				Subject:  attr.NameRange.Ptr(),
			})
		} else {
			mc.ForEach = attr.Expr
		}
	}
	if attr, ok := content.Attributes["depends_on"]; ok {
		deps, ds := decodeDependsOn(attr)
		diags = append(diags, ds...)
		mc.DependsOn = deps
	}
	if attr, ok := content.Attributes["providers"]; ok {
		mc.ProvidersSet = true
		passed, ds := decodePassedProviders(attr)
		diags = append(diags, ds...)
		mc.Providers = passed
	}
	for _, blk := range content.Blocks {
		if blk.Type == "lifecycle" {
			mc.lifecycleBlock = true
			diags = append(diags, mc.decodeLifecycle(blk)...)
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Reserved block type name in module block",
			Detail:   fmt.Sprintf("The block type name %q is reserved for use by Terraform in a future version.", blk.Type),
			Subject:  blk.TypeRange.Ptr(),
		})
	}
	return mc, diags
}

// decodeSource reads the source argument: a literal string, or an
// expression evaluated later (see SourceExpr).
func (mc *ModuleCall) decodeSource(attr *hcl.Attribute) hcl.Diagnostics {
	mc.SourceAddrRange = attr.Expr.Range()
	if isDynamic(attr.Expr) {
		mc.SourceExpr = attr.Expr
		return nil
	}
	return mc.setSource(attr.Expr.Value(nil))
}

// setSource sets SourceAddr from the source's value.
func (mc *ModuleCall) setSource(val cty.Value, diags hcl.Diagnostics) hcl.Diagnostics {
	if diags.HasErrors() || val.IsNull() || !val.IsKnown() || !val.Type().Equals(cty.String) {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid module source address",
			Detail:   "The source argument must be a string: a local path beginning with ./ or ../, a module registry address or a remote address.",
			Subject:  mc.SourceAddrRange.Ptr(),
		}}
	}
	mc.SourceAddr = val.AsString()
	if mc.SourceAddr == "" {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid module source address",
			Detail:   "The source argument must not be empty: give a local path beginning with ./ or ../, a module registry address or a remote address.",
			Subject:  mc.SourceAddrRange.Ptr(),
		}}
	}
	return nil
}

// decodeVersion reads the version argument, a version constraint string
// (only registry modules may have one), or an expression evaluated later
// (see VersionExpr).
func (mc *ModuleCall) decodeVersion(attr *hcl.Attribute) hcl.Diagnostics {
	mc.VersionRange = attr.Expr.Range()
	if isDynamic(attr.Expr) {
		mc.VersionExpr = attr.Expr
		return nil
	}
	return mc.setVersion(attr.Expr.Value(nil))
}

// setVersion sets Version from the version's value.
func (mc *ModuleCall) setVersion(val cty.Value, diags hcl.Diagnostics) hcl.Diagnostics {
	if diags.HasErrors() || val.IsNull() || !val.IsKnown() || !val.Type().Equals(cty.String) {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid version constraint",
			Detail:   "A module version constraint must be a string.",
			Subject:  mc.VersionRange.Ptr(),
		}}
	}
	mc.Version = val.AsString()
	if _, err := version.NewConstraint(mc.Version); err != nil {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid version constraint",
			Detail:   "This string does not use correct version constraint syntax.",
			Subject:  mc.VersionRange.Ptr(),
		}}
	}
	return nil
}

// IsLocalModuleSource reports whether a module source address is a local
// path, which Terraform recognises by its ./ or ../ prefix.
func IsLocalModuleSource(s string) bool {
	for _, prefix := range []string{"./", "../", `.\`, `..\`} {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

// decodePassedProviders decodes providers = { CHILD = PARENT, ... }.
func decodePassedProviders(attr *hcl.Attribute) ([]PassedProvider, hcl.Diagnostics) {
	pairs, diags := hcl.ExprMap(attr.Expr)
	var out []PassedProvider
	for _, pair := range pairs {
		child, ds := decodeProviderConfigRef(pair.Key)
		diags = append(diags, ds...)
		parent, ds := decodeProviderConfigRef(pair.Value)
		diags = append(diags, ds...)
		if child != nil && parent != nil {
			out = append(out, PassedProvider{InChild: child, InParent: parent})
		}
	}
	return out, diags
}

// addModuleCall adds a module call, refusing a second one of the same
// name.
func (b *moduleBuilder) addModuleCall(mc *ModuleCall) {
	if b.overriding {
		b.moduleCalls = append(b.moduleCalls, mc)
		return
	}
	if prev, ok := b.mod.ModuleCalls[mc.Name]; ok {
		b.report(hcl.Diagnostics{duplicateDiag("Duplicate module call",
			fmt.Sprintf("A module call named %q", mc.Name), renameOrRemove, prev.DeclRange, mc.NameRange)})
		return
	}
	b.mod.ModuleCalls[mc.Name] = mc
}

// mergeModuleCalls merges an override file's module blocks into the
// primary ones: arguments it sets replace the primary block's, input
// arguments one by one.
func (b *moduleBuilder) mergeModuleCalls(calls []*ModuleCall) {
	for _, oc := range calls {
		base, ok := b.mod.ModuleCalls[oc.Name]
		if !ok {
			b.report(hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Missing module call to override",
				Detail:   fmt.Sprintf("There is no module call named %q. An override file can only override a module block defined in a primary configuration file.", oc.Name),
				Subject:  oc.DeclRange.Ptr(),
			}})
			continue
		}
		if oc.SourceAddr != "" || oc.SourceExpr != nil {
			base.SourceAddr, base.SourceAddrRange, base.SourceExpr = oc.SourceAddr, oc.SourceAddrRange, oc.SourceExpr
		}
		if oc.Version != "" || oc.VersionExpr != nil {
			base.Version, base.VersionRange, base.VersionExpr = oc.Version, oc.VersionRange, oc.VersionExpr
		}
		if oc.Count != nil {
			base.Count, base.ForEach = oc.Count, nil
		}
		if oc.ForEach != nil {
			base.ForEach, base.Count = oc.ForEach, nil
		}
		if oc.DependsOn != nil {
			base.DependsOn = oc.DependsOn
		}
		if oc.ProvidersSet {
			base.Providers, base.ProvidersSet = oc.Providers, true
		}
		base.Config = overrideBody(base.Config, oc.Config)
	}
}

var moduleLifecycleSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "enabled"}}}

// decodeLifecycle decodes a module call's lifecycle block, whose one
// argument is OpenTofu 1.11's enabled; with count or for_each it is
// OpenTofu's error.
func (mc *ModuleCall) decodeLifecycle(blk *hcl.Block) hcl.Diagnostics {
	if mc.Enabled != nil {
		return hcl.Diagnostics{duplicateDiag("Duplicate lifecycle block", "A lifecycle block",
			"Merge the settings into one lifecycle block.", blk.DefRange, blk.TypeRange)}
	}
	content, diags := blk.Body.Content(moduleLifecycleSchema)
	attr, ok := content.Attributes["enabled"]
	if !ok {
		return diags
	}
	other := ""
	switch {
	case mc.Count != nil:
		other = `"count" and "enabled"`
	case mc.ForEach != nil:
		other = `"enabled" and "for_each"`
	}
	if other != "" {
		return append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid combination of " + other,
			Detail:   "The " + other + " meta-arguments are mutually-exclusive. Only one should be used to be explicit about the number of module instances to be created.",
			Subject:  attr.NameRange.Ptr(),
		})
	}
	mc.Enabled = attr.Expr
	return diags
}

// dropLifecycleBlockDiags removes the "Unexpected lifecycle block" error
// hcl's native JustAttributes gives for a block PartialContent already
// took out of the body.
func dropLifecycleBlockDiags(ds hcl.Diagnostics) hcl.Diagnostics {
	out := ds[:0:0]
	for _, d := range ds {
		if d.Summary != `Unexpected "lifecycle" block` {
			out = append(out, d)
		}
	}
	return out
}
