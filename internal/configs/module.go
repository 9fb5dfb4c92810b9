package configs

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/zclconf/go-cty/cty"
)

// Module is one module's configuration: everything declared in the files
// of one directory. Modules form a tree through their calls: the root
// module is the one Cairn was pointed at, and each ModuleCall holds the
// child it loaded.
type Module struct {
	// SourceDir is the directory the files were read from.
	SourceDir string
	// Sources holds each file's bytes by the file name used in ranges, so
	// diagnostics can show source snippets and plan files can embed them.
	// A child module's file names are relative to the root module's
	// directory ("modules/net/main.tf"); the root's map holds the files
	// of the whole tree.
	Sources map[string][]byte

	// Path is the module's static address (nil for the root); Parent and
	// Call are the calling module and its module block (nil for the root).
	Path   addrs.Module
	Parent *Module
	Call   *ModuleCall
	// Dir is the module's directory relative to the root module's, in
	// slash form ("." for the root), as path.module and modules.json give
	// it.
	Dir         string
	ModuleCalls map[string]*ModuleCall

	RequiredVersions  []VersionConstraint
	RequiredProviders map[string]*RequiredProvider // by local name
	Backend           *Backend
	// Encryption is terraform { encryption { ... } }, nil when absent.
	Encryption *Encryption

	ProviderConfigs  map[string]*Provider // by "name" or "name.alias"
	ProviderMetas    []*ProviderMeta      // in source order
	Variables        map[string]*Variable
	Locals           map[string]*Local
	Outputs          map[string]*Output
	ManagedResources map[string]*Resource // by "type.name"
	DataResources    map[string]*Resource // by "data.type.name"
	// EphemeralResources are the ephemeral blocks, by
	// "ephemeral.type.name" (Terraform 1.10, OpenTofu 1.11).
	EphemeralResources map[string]*Resource
	// Imports are the import blocks, in source order.
	Imports []*Import
	// Checks are the check blocks, by name.
	Checks map[string]*Check
	// Moved and Removed are the moved and removed blocks, in source order.
	Moved   []*Moved
	Removed []*Removed
	// FunctionCalls are the calls of namespaced functions
	// (provider::NAME::FUNC, core::FUNC), in source order.
	FunctionCalls []FunctionCall
}

// VersionConstraint is one required_version (or provider version) string.
type VersionConstraint struct {
	Constraint string
	DeclRange  hcl.Range
}

// RequiredProvider is one entry of terraform { required_providers { ... } }.
type RequiredProvider struct {
	Name     string // local name
	Source   addrs.Provider
	Versions []VersionConstraint
	// Aliases are the configuration_aliases entries: the aliased
	// configurations a child module expects its caller to pass.
	Aliases   []ProviderConfigAlias
	DeclRange hcl.Range
}

// ProviderConfigAlias is one configuration_aliases entry, NAME.ALIAS.
type ProviderConfigAlias struct {
	Name, Alias string
}

// Backend is terraform { backend "TYPE" { ... } }.
type Backend struct {
	Type      string
	Config    hcl.Body
	TypeRange hcl.Range
	DeclRange hcl.Range
}

// Encryption is OpenTofu's terraform { encryption { ... } } block, kept
// undecoded: package encryption decodes Body once the variables a
// passphrase may refer to are known.
type Encryption struct {
	Body      hcl.Body
	DeclRange hcl.Range
}

// Provider is a provider "NAME" { ... } block.
type Provider struct {
	Name       string
	NameRange  hcl.Range
	Alias      string
	AliasRange *hcl.Range
	// Source is the provider's resolved source address: the
	// required_providers entry for Name, or the default for that name.
	Source addrs.Provider
	// Config is the body with alias and version removed.
	Config    hcl.Body
	DeclRange hcl.Range
	// ForEach is the for_each expression of a configuration with one
	// instance per key (OpenTofu 1.9), or nil. It requires an alias, and
	// its value must be known when planning starts: it may refer to
	// variables and locals, not to resources (see StaticReferences).
	ForEach hcl.Expression
}

// Variable is a variable block.
type Variable struct {
	Name        string
	Description string
	// Default is cty.NilVal when the variable has no default (it is then
	// required).
	Default cty.Value
	// Type is the type constraint (cty.DynamicPseudoType for "any" or none).
	Type cty.Type
	// TypeDefaults holds defaults of optional object attributes, if any.
	TypeDefaults *typeexpr.Defaults
	Sensitive    bool
	// Ephemeral (Terraform 1.10, OpenTofu 1.11) marks the value
	// ephemeral: it may reach only places that keep nothing, and is never
	// written to a plan or state.
	Ephemeral bool
	// Deprecated (OpenTofu 1.10, Terraform 1.15) is the message warning
	// whoever sets the variable; empty when it is not deprecated.
	Deprecated string
	// Const (Terraform 1.15, OpenTofu 1.12) says the value is known when
	// the configuration loads, so it may be used in a module's source and
	// version; ConstSet with Const false (const = false) keeps the
	// variable out of those places, as OpenTofu does.
	Const, ConstSet bool
	// Nullable is true unless the block says nullable = false.
	Nullable    bool
	Validations []*CheckRule
	// ParsingMode says how a value given as a plain string on the command
	// line or in the environment is read for this variable.
	ParsingMode VariableParsingMode
	// The *Set fields say which arguments the block wrote, so that an
	// override file replaces only those.
	DescriptionSet, TypeSet, SensitiveSet, NullableSet, EphemeralSet bool
	DeclRange                                                        hcl.Range
	NameRange                                                        hcl.Range
}

// CheckRule is a validation, precondition or postcondition.
type CheckRule struct {
	Condition    hcl.Expression
	ErrorMessage hcl.Expression
	DeclRange    hcl.Range
}

// Local is one entry of a locals block.
type Local struct {
	Name      string
	Expr      hcl.Expression
	DeclRange hcl.Range
	NameRange hcl.Range
}

// Output is an output block.
type Output struct {
	Name        string
	Description string
	Expr        hcl.Expression
	// Type is the type constraint (Terraform 1.15) the value is
	// converted to, with TypeDefaults for optional object attributes;
	// TypeSet is false when the block has none and the value keeps the
	// type it has.
	Type         cty.Type
	TypeDefaults *typeexpr.Defaults
	TypeSet      bool
	Sensitive    bool
	SensitiveSet bool // so an override file can tell "false" from absent
	// Ephemeral allows an ephemeral value, which stays ephemeral; only a
	// child module's output may be ephemeral.
	Ephemeral    bool
	EphemeralSet bool
	// Deprecated is the message warning whoever reads the output
	// (OpenTofu 1.10, Terraform 1.15); empty when it is not deprecated.
	Deprecated    string
	DependsOn     []hcl.Traversal
	Preconditions []*CheckRule
	DeclRange     hcl.Range
	NameRange     hcl.Range
}

// Resource is a resource, data or ephemeral block.
type Resource struct {
	Mode addrs.ResourceMode
	Type string
	Name string

	// Config is the block's body without its meta-arguments, with dynamic
	// blocks still unexpanded (the planner expands them when decoding
	// against the provider schema, because their for_each may be unknown).
	Config hcl.Body

	// Count and ForEach are nil when absent; at most one is set.
	Count   hcl.Expression
	ForEach hcl.Expression
	// Enabled is lifecycle.enabled (OpenTofu 1.11), nil when absent:
	// true is one instance without a key, false none. Never set with
	// Count or ForEach.
	Enabled hcl.Expression

	// ProviderConfigRef is the provider meta-argument, nil when absent.
	ProviderConfigRef *ProviderConfigRef
	// Provider is the resolved provider source address: from the
	// provider meta-argument's local name, or implied by the type name, via
	// required_providers (or the hashicorp/<name> default; "terraform" is
	// always terraform.io/builtin/terraform).
	Provider addrs.Provider

	DependsOn []hcl.Traversal

	// Managed holds the lifecycle settings of a managed resource; nil for
	// data resources.
	Managed *ManagedResource

	Preconditions  []*CheckRule
	Postconditions []*CheckRule

	// Check names the check block a scoped data resource belongs to; ""
	// for a resource of the module itself. Only that check's assertions
	// may refer to a scoped resource, and its failures are warnings.
	Check string

	DeclRange hcl.Range
	TypeRange hcl.Range
	NameRange hcl.Range

	// providerAddr is the provider configuration resolved across the
	// module tree (providerResolved says it was).
	providerAddr     addrs.AbsProviderConfig
	providerKey      ProviderKeySource
	providerResolved bool
}

// ManagedResource holds the lifecycle block of a resource.
type ManagedResource struct {
	CreateBeforeDestroy    bool
	CreateBeforeDestroySet bool
	PreventDestroy         bool
	PreventDestroySet      bool // so an override file can tell "false" from absent
	// PreventDestroyExpr is prevent_destroy when it refers to variables
	// or locals (OpenTofu 1.12), evaluated when planning; PreventDestroy
	// is then false.
	PreventDestroyExpr hcl.Expression
	IgnoreChanges      []hcl.Traversal // relative paths into the resource's value
	IgnoreAllChanges   bool
	ReplaceTriggeredBy []hcl.Expression
}

// ProviderConfigRef is a provider = NAME or provider = NAME.ALIAS reference.
type ProviderConfigRef struct {
	Name       string
	NameRange  hcl.Range
	Alias      string
	AliasRange *hcl.Range
	// KeyExpr selects one instance of a provider configuration with
	// for_each (aws.by_region[each.key]); nil when there is no key. A
	// constant key is a static expression.
	KeyExpr hcl.Expression
}

// Addr returns the resource's address within its module.
func (r *Resource) Addr() addrs.Resource {
	return addrs.Resource{Mode: r.Mode, Type: r.Type, Name: r.Name}
}

// ProviderConfigAddr returns the provider configuration the resource uses:
// once the module tree is loaded, the one its module resolves to (possibly
// an ancestor's), else the root-module reading of its provider argument.
func (r *Resource) ProviderConfigAddr() addrs.AbsProviderConfig {
	if r.providerResolved {
		return r.providerAddr
	}
	pc := addrs.AbsProviderConfig{Provider: r.Provider}
	if r.ProviderConfigRef != nil {
		pc.Alias = r.ProviderConfigRef.Alias
	}
	return pc
}

// ProviderConfigKey returns the key of a provider block in
// Module.ProviderConfigs for a local name and alias.
func ProviderConfigKey(name, alias string) string {
	if alias == "" {
		return name
	}
	return name + "." + alias
}

// ResourceByAddr returns the resource block with the given address, or nil.
func (m *Module) ResourceByAddr(addr addrs.Resource) *Resource {
	switch addr.Mode {
	case addrs.ManagedResourceMode:
		return m.ManagedResources[addr.Type+"."+addr.Name]
	case addrs.DataResourceMode:
		return m.DataResources["data."+addr.Type+"."+addr.Name]
	case addrs.EphemeralResourceMode:
		return m.EphemeralResources["ephemeral."+addr.Type+"."+addr.Name]
	}
	return nil
}

// LocalNameForProvider returns the local name the module uses for a
// provider source address: the required_providers entry naming it, or the
// provider's type.
func (m *Module) LocalNameForProvider(p addrs.Provider) string {
	for name, rp := range m.RequiredProviders {
		if rp.Source == p {
			return name
		}
	}
	return p.Type
}

// ResourceMaps returns the module's resource maps, managed, data and
// ephemeral, for code that treats every mode alike.
func (m *Module) ResourceMaps() []map[string]*Resource {
	return []map[string]*Resource{m.ManagedResources, m.DataResources, m.EphemeralResources}
}
