package configs

import (
	"fmt"
	"maps"
	"slices"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/hashicorp/hcl/v2"
)

// ProviderKeySource says where the instances of a resource find the key
// of their provider instance when their provider configuration has
// for_each (OpenTofu 1.9). The zero value means the configuration has no
// instances: every resource instance uses the configuration itself.
type ProviderKeySource struct {
	// Expr evaluates to the key, or is nil.
	Expr hcl.Expression
	// Call, when FromCall, is the path of the module whose call's
	// providers argument holds Expr: it is evaluated in the calling
	// module instance, with the call instance's count.index or
	// each.key/each.value. Otherwise Expr is the resource's own provider
	// argument, evaluated with the resource instance's.
	Call     addrs.Module
	FromCall bool
}

// ProviderKey returns where the resource's instances find their provider
// instance's key (the zero value until the module tree is resolved).
func (r *Resource) ProviderKey() ProviderKeySource { return r.providerKey }

// resolveProviderInstance is ResolveProviderConfig that also reports the
// key source when a module call passes one instance of a configuration
// with for_each (providers = { aws = aws.by_region[each.key] }).
func (m *Module) resolveProviderInstance(name, alias string) (addrs.AbsProviderConfig, ProviderKeySource, bool) {
	fqn := m.providerForLocalName(name)
	here := addrs.AbsProviderConfig{Module: m.Path, Provider: fqn, Alias: alias}
	if _, ok := m.ProviderConfigs[ProviderConfigKey(name, alias)]; ok {
		return here, ProviderKeySource{}, true
	}
	if m.Parent == nil {
		return here, ProviderKeySource{}, alias == ""
	}
	if m.Call.ProvidersSet {
		for _, pp := range m.Call.Providers {
			if pp.InChild.Name == name && pp.InChild.Alias == alias {
				addr, key, ok := m.Parent.resolveProviderInstance(pp.InParent.Name, pp.InParent.Alias)
				if pp.InParent.KeyExpr != nil {
					key = ProviderKeySource{Expr: pp.InParent.KeyExpr, Call: m.Path, FromCall: true}
				}
				return addr, key, ok
			}
		}
	}
	return m.Parent.resolveProviderInstance(m.Parent.LocalNameForProvider(fqn), alias)
}

// checkProviderInstances reports the misuses of provider configurations
// with for_each that OpenTofu 1.12 reports when it loads a module: an
// instance key on the child side of a providers argument, a key where the
// configuration has no for_each, no key where it has, and (as a warning)
// a resource or module call whose for_each is the provider's, which makes
// removing an element fail.
func checkProviderInstances(m *Module) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, name := range slices.Sorted(maps.Keys(m.ModuleCalls)) {
		mc := m.ModuleCalls[name]
		for _, pp := range mc.Providers {
			if pp.InChild.KeyExpr != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid module provider configuration",
					Detail:   "Instance keys are not allowed on the left side of a provider configuration assignment.",
					Subject:  pp.InChild.KeyExpr.Range().Ptr(),
				})
			}
			diags = append(diags, m.checkProviderRef("module", pp.InParent)...)
			if pp.InParent.KeyExpr != nil {
				diags = append(diags, providerForEachMatches("module", "-target="+m.Path.Child(name).String(), mc.ForEach, m.providerForEach(pp.InParent))...)
			}
		}
	}
	for _, rs := range m.ResourceMaps() {
		for _, key := range slices.Sorted(maps.Keys(rs)) {
			r := rs[key]
			if r.ProviderConfigRef == nil {
				continue
			}
			diags = append(diags, m.checkProviderRef("resource", r.ProviderConfigRef)...)
			if r.ProviderConfigRef.KeyExpr != nil && r.Mode == addrs.ManagedResourceMode {
				diags = append(diags, providerForEachMatches("resource", "-target="+r.Addr().InModule(m.Path).String(), r.ForEach, m.providerForEach(r.ProviderConfigRef))...)
			}
		}
	}
	return diags
}

// providerForEach returns the for_each of the provider block of m that
// ref names, or nil.
func (m *Module) providerForEach(ref *ProviderConfigRef) hcl.Expression {
	if pc := m.ProviderConfigs[ProviderConfigKey(ref.Name, ref.Alias)]; pc != nil {
		return pc.ForEach
	}
	return nil
}

// checkProviderRef checks a reference's instance key against the provider
// block it names in m, in OpenTofu's words. As in OpenTofu, a block with
// nothing but its alias does not count as declaring the configuration.
func (m *Module) checkProviderRef(blockType string, ref *ProviderConfigRef) hcl.Diagnostics {
	summary := fmt.Sprintf("Invalid %s provider configuration", blockType)
	pc := m.ProviderConfigs[ProviderConfigKey(ref.Name, ref.Alias)]
	instanced := pc != nil && pc.ForEach != nil
	switch {
	case ref.KeyExpr == nil && instanced:
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  summary,
			Detail:   "A reference to a provider configuration which uses for_each requires an instance key. Passing a collection of provider instances into a child module is not allowed.",
			Subject:  ref.NameRange.Ptr(),
		}}
	case ref.KeyExpr == nil || instanced:
		return nil
	case ref.Alias == "":
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  summary,
			Detail:   "An instance key can be specified only for a provider configuration which has an alias and uses for_each.",
			Subject:  ref.KeyExpr.Range().Ptr(),
		}}
	case pc == nil || bodyIsEmpty(pc.Config):
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  summary,
			Detail:   fmt.Sprintf("This module doesn't declare a provider %q block with alias = %q, which is required for use with for_each.", ref.Name, ref.Alias),
			Subject:  ref.NameRange.Ptr(),
		}}
	default:
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  summary,
			Detail:   "An instance key can be specified only for a provider configuration that uses for_each.",
			Subject:  ref.KeyExpr.Range().Ptr(),
		}}
	}
}

// bodyIsEmpty reports whether a provider block's own arguments are empty.
func bodyIsEmpty(body hcl.Body) bool {
	if body == nil {
		return true
	}
	_, diags := body.Content(&hcl.BodySchema{})
	return !diags.HasErrors()
}

// StaticSubject names the provider block's for_each in messages about
// its static evaluation, as OpenTofu does: provider.aws.by_region.for_each,
// prefixed with the module path in a child module (module.a:...).
func (p *Provider) StaticSubject(m addrs.Module) string {
	s := fmt.Sprintf("provider.%s.%s.for_each", p.Name, p.Alias)
	if !m.IsRoot() {
		s = m.String() + ":" + s
	}
	return s
}
