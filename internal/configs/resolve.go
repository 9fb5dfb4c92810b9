package configs

import (
	"github.com/cairn-iac/cairn/internal/addrs"
)

// providerForLocalName resolves a provider local name to a source address:
// the required_providers entry of that name, else the built-in provider for
// "terraform", else Terraform's default hashicorp/NAME.
func (m *Module) providerForLocalName(name string) addrs.Provider {
	if rp, ok := m.RequiredProviders[name]; ok {
		return rp.Source
	}
	if name == "terraform" {
		return addrs.NewBuiltInProvider("terraform")
	}
	return addrs.NewDefaultProvider(name)
}

// resolveProviders sets the source address of every provider block and
// resource, once all files (and so all required_providers entries) are
// loaded. Which configuration (block) a resource uses needs the module
// tree: see resolveModuleProviders.
func (b *moduleBuilder) resolveProviders() {
	for _, p := range b.mod.ProviderConfigs {
		p.Source = b.mod.providerForLocalName(p.Name)
	}
	for _, pm := range b.mod.ProviderMetas {
		pm.Provider = b.mod.providerForLocalName(pm.Name)
	}
	for _, r := range b.resources {
		b.resolveResourceProvider(r)
	}
}

func (b *moduleBuilder) resolveResourceProvider(r *Resource) {
	ref := r.ProviderConfigRef
	if ref == nil {
		r.Provider = b.mod.providerForLocalName(r.Addr().ImpliedProviderType())
		return
	}
	r.Provider = b.mod.providerForLocalName(ref.Name)
}

// ProviderForLocalName is the source address a local name means in m
// (required_providers, the built-in terraform provider, or
// hashicorp/NAME), for files written against the module (test files'
// provider and mock_provider blocks).
func (m *Module) ProviderForLocalName(name string) addrs.Provider {
	return m.providerForLocalName(name)
}
