package configs

import (
	"fmt"
	"maps"
	"slices"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
)

// resolveModuleProviders sets the provider configuration of every resource
// of m, following Terraform's rules across the module tree, and reports
// resources whose configuration cannot be found.
func resolveModuleProviders(m *Module) diags.Diagnostics {
	var ds diags.Diagnostics
	ds = ds.Append(checkProviderInstances(m))
	for _, rs := range m.ResourceMaps() {
		for _, key := range slices.Sorted(maps.Keys(rs)) {
			r := rs[key]
			name, alias := r.Addr().ImpliedProviderType(), ""
			if ref := r.ProviderConfigRef; ref != nil {
				name, alias = ref.Name, ref.Alias
			}
			addr, key, ok := m.resolveProviderInstance(name, alias)
			if !ok {
				ds = ds.Append(providerNotPresent(r, name, alias))
				continue
			}
			if ref := r.ProviderConfigRef; ref != nil && ref.KeyExpr != nil {
				key = ProviderKeySource{Expr: ref.KeyExpr}
			}
			r.providerAddr, r.providerKey, r.providerResolved = addr, key, true
		}
	}
	return ds
}

// ResolveProviderConfig returns the provider configuration that the local
// name and alias mean in module m:
//   - a provider block of m with that name and alias;
//   - in the root module, a default configuration nobody declared, which
//     is implied (empty);
//   - in a child called with a providers argument, the caller's
//     configuration passed under that name;
//   - otherwise the caller's configuration of the same provider and
//     alias, looked up the same way (implicit inheritance). Terraform's
//     documentation says a providers argument ends inheritance, but
//     Terraform 1.5.7 still inherits what the argument does not pass,
//     and Cairn does what it does.
func (m *Module) ResolveProviderConfig(name, alias string) (addrs.AbsProviderConfig, bool) {
	addr, _, ok := m.resolveProviderInstance(name, alias)
	return addr, ok
}

func providerNotPresent(r *Resource, name, alias string) diags.Diagnostic {
	d := diags.Errorf("Provider configuration not present",
		"%s uses the provider configuration %s.%s, but no provider %q block has alias = %q, and no module call passes one under that name. Add that provider block, or change the provider argument.",
		r.Addr(), name, alias, name, alias)
	if ref := r.ProviderConfigRef; ref != nil && ref.AliasRange != nil {
		rng := ref.NameRange
		rng.End = ref.AliasRange.End
		d.Subject = &rng
	}
	return d
}

// String helps diagnostics name a passed provider.
func (pp PassedProvider) String() string {
	return fmt.Sprintf("%s = %s", ProviderConfigKey(pp.InChild.Name, pp.InChild.Alias), ProviderConfigKey(pp.InParent.Name, pp.InParent.Alias))
}
