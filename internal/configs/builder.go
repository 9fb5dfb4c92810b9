package configs

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/hashicorp/hcl/v2"
)

// moduleBuilder accumulates the declarations of a module's files, one file
// after another in name order, so that a duplicate is always reported at
// the later declaration and names the earlier one. It lives for one load.
type moduleBuilder struct {
	mod   *Module
	diags hcl.Diagnostics
	// backendDecl is the first backend block, also when its type was
	// refused, so a second one is still reported as a duplicate.
	backendDecl *hcl.Range
	// resources lists the accepted resources in source order, so that
	// resolving their providers reports problems in a stable order.
	resources []*Resource

	// overriding is set while decoding an override file: its objects are
	// collected in source order, without duplicate checks, to be merged
	// into the primary files' objects.
	overriding  bool
	variables   []*Variable
	providers   []*Provider
	locals      []*Local
	outputs     []*Output
	moduleCalls []*ModuleCall
}

func newModule(dir string) *Module {
	return &Module{
		SourceDir:          dir,
		Sources:            make(map[string][]byte),
		RequiredProviders:  make(map[string]*RequiredProvider),
		ProviderConfigs:    make(map[string]*Provider),
		Variables:          make(map[string]*Variable),
		Locals:             make(map[string]*Local),
		Outputs:            make(map[string]*Output),
		ManagedResources:   make(map[string]*Resource),
		DataResources:      make(map[string]*Resource),
		EphemeralResources: make(map[string]*Resource),
		ModuleCalls:        make(map[string]*ModuleCall),
		Dir:                ".",
		Checks:             make(map[string]*Check),
	}
}

func newModuleBuilder(dir string) *moduleBuilder {
	return &moduleBuilder{mod: newModule(dir)}
}

// finish resolves what needs every file (provider addresses, the language
// version check) and converts the diagnostics.
func (b *moduleBuilder) finish() (*Module, diags.Diagnostics) {
	versionDiags := checkLanguageVersion(b.mod.RequiredVersions)
	if versionDiags.HasErrors() {
		// A configuration for another Terraform version may use syntax this
		// loader does not know; its other errors would only hide the cause.
		return b.mod, diags.Diagnostics{}.Append(versionDiags)
	}
	b.resolveProviders()
	b.checkImports()
	return b.mod, diags.Diagnostics{}.Append(dedupe(b.diags))
}

// dedupe drops repeated identical diagnostics: hcl reports some structural
// problems of JSON files once per decoding pass.
func dedupe(ds hcl.Diagnostics) hcl.Diagnostics {
	type key struct {
		sev             hcl.DiagnosticSeverity
		summary, detail string
		subject         hcl.Range
	}
	seen := make(map[key]bool, len(ds))
	out := ds[:0:0]
	for _, d := range ds {
		k := key{d.Severity, d.Summary, d.Detail, hcl.Range{}}
		if d.Subject != nil {
			k.subject = *d.Subject
		}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, d)
	}
	return out
}

func (b *moduleBuilder) report(ds hcl.Diagnostics) {
	b.diags = append(b.diags, ds...)
}

func (b *moduleBuilder) addRequiredProvider(rp *RequiredProvider) {
	if prev, ok := b.mod.RequiredProviders[rp.Name]; ok {
		b.report(hcl.Diagnostics{duplicateDiag("Duplicate required provider",
			fmt.Sprintf("A required provider named %q", rp.Name),
			"Merge the two entries into one.", prev.DeclRange, rp.DeclRange)})
		return
	}
	b.mod.RequiredProviders[rp.Name] = rp
}

func (b *moduleBuilder) addProvider(p *Provider) {
	if b.overriding {
		b.providers = append(b.providers, p)
		return
	}
	key := ProviderConfigKey(p.Name, p.Alias)
	if prev, ok := b.mod.ProviderConfigs[key]; ok {
		what := fmt.Sprintf("A default (unaliased) configuration for provider %q", p.Name)
		subject := p.NameRange
		if p.Alias != "" {
			what = fmt.Sprintf("A configuration for provider %q with alias %q", p.Name, p.Alias)
			subject = *p.AliasRange
		}
		b.report(hcl.Diagnostics{duplicateDiag("Duplicate provider configuration", what,
			"Give one of them a different alias with alias = \"NAME\", or remove one.", prev.DeclRange, subject)})
		return
	}
	b.mod.ProviderConfigs[key] = p
}

func (b *moduleBuilder) addVariable(v *Variable) {
	if b.overriding {
		b.variables = append(b.variables, v)
		return
	}
	if prev, ok := b.mod.Variables[v.Name]; ok {
		b.report(hcl.Diagnostics{duplicateDiag("Duplicate variable declaration",
			fmt.Sprintf("A variable named %q", v.Name), renameOrRemove, prev.DeclRange, v.NameRange)})
		return
	}
	b.mod.Variables[v.Name] = v
}

func (b *moduleBuilder) addLocal(l *Local) {
	if b.overriding {
		b.locals = append(b.locals, l)
		return
	}
	if prev, ok := b.mod.Locals[l.Name]; ok {
		b.report(hcl.Diagnostics{duplicateDiag("Duplicate local value definition",
			fmt.Sprintf("A local value named %q", l.Name), renameOrRemove, prev.DeclRange, l.NameRange)})
		return
	}
	b.mod.Locals[l.Name] = l
}

func (b *moduleBuilder) addOutput(o *Output) {
	if b.overriding {
		b.outputs = append(b.outputs, o)
		return
	}
	if prev, ok := b.mod.Outputs[o.Name]; ok {
		b.report(hcl.Diagnostics{duplicateDiag("Duplicate output definition",
			fmt.Sprintf("An output named %q", o.Name), renameOrRemove, prev.DeclRange, o.NameRange)})
		return
	}
	b.mod.Outputs[o.Name] = o
}

func (b *moduleBuilder) addResource(r *Resource) {
	if b.overriding {
		b.resources = append(b.resources, r)
		return
	}
	m, key, kind := b.mod.ManagedResources, r.Type+"."+r.Name, "resource"
	switch r.Mode {
	case addrs.DataResourceMode:
		m, key, kind = b.mod.DataResources, "data."+key, "data"
	case addrs.EphemeralResourceMode:
		m, key, kind = b.mod.EphemeralResources, "ephemeral."+key, "ephemeral resource"
	}
	if prev, ok := m[key]; ok {
		what := fmt.Sprintf("A %s %q named %q", kind, r.Type, r.Name)
		if r.Mode == addrs.EphemeralResourceMode {
			what = fmt.Sprintf("A %s ephemeral resource named %q", r.Type, r.Name)
		}
		b.report(hcl.Diagnostics{duplicateDiag(fmt.Sprintf("Duplicate %s %q configuration", kind, r.Type),
			what, renameOrRemove, prev.DeclRange, r.NameRange)})
		return
	}
	m[key] = r
	b.resources = append(b.resources, r)
}
