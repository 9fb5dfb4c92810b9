package configs

import (
	"maps"
	"slices"
	"sort"

	"github.com/cairn-iac/cairn/internal/addrs"
)

// ProviderRequirement is what the whole module tree asks of one provider:
// every version constraint any module writes for it (all must hold), and
// where each was written.
type ProviderRequirement struct {
	Provider    addrs.Provider
	Constraints []VersionConstraint
}

// ProviderRequirements lists every provider the module tree uses — in
// required_providers entries, provider blocks and resources of any module
// — with the version constraints of every module, in provider address
// order. Built-in providers are included; installers skip them.
func (m *Module) ProviderRequirements() []ProviderRequirement {
	byAddr := map[addrs.Provider]*ProviderRequirement{}
	add := func(p addrs.Provider, vcs ...VersionConstraint) {
		r := byAddr[p]
		if r == nil {
			r = &ProviderRequirement{Provider: p}
			byAddr[p] = r
		}
		r.Constraints = append(r.Constraints, vcs...)
	}
	m.Walk(func(mod *Module) {
		for _, r := range mod.OwnProviderRequirements() {
			add(r.Provider, r.Constraints...)
		}
	})
	out := make([]ProviderRequirement, 0, len(byAddr))
	for _, r := range byAddr {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Provider.String() < out[j].Provider.String() })
	return out
}

// OwnProviderRequirements lists the providers this module alone uses —
// its required_providers entries, provider blocks and resources, not its
// children's — with its own version constraints, in provider address
// order: one level of `providers`' requirements tree.
func (m *Module) OwnProviderRequirements() []ProviderRequirement {
	byAddr := map[addrs.Provider]*ProviderRequirement{}
	add := func(p addrs.Provider, vcs ...VersionConstraint) {
		r := byAddr[p]
		if r == nil {
			r = &ProviderRequirement{Provider: p}
			byAddr[p] = r
		}
		r.Constraints = append(r.Constraints, vcs...)
	}
	for _, name := range slices.Sorted(maps.Keys(m.RequiredProviders)) {
		rp := m.RequiredProviders[name]
		add(rp.Source, rp.Versions...)
	}
	for _, key := range slices.Sorted(maps.Keys(m.ProviderConfigs)) {
		add(m.ProviderConfigs[key].Source)
	}
	for _, rs := range m.ResourceMaps() {
		for _, key := range slices.Sorted(maps.Keys(rs)) {
			add(rs[key].Provider)
		}
	}
	out := make([]ProviderRequirement, 0, len(byAddr))
	for _, r := range byAddr {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Provider.String() < out[j].Provider.String() })
	return out
}

// Providers lists every provider the module tree needs, in address order:
// those its modules' required_providers entries, provider blocks and
// resources name, as ProviderRequirements does. Every run whose input is
// a configuration (plan, validate, console, graph, init,
// providers schema) loads the schemas of these, as Terraform does of
// its configuration's provider types.
func (m *Module) Providers() []addrs.Provider {
	reqs := m.ProviderRequirements()
	out := make([]addrs.Provider, len(reqs))
	for i, r := range reqs {
		out[i] = r.Provider
	}
	return out
}
