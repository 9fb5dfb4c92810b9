package render

import (
	"sort"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	tfjson "github.com/hashicorp/terraform-json"
)

// configJSON returns the "configuration" of a JSON plan as far as the plan
// knows it: the provider configurations its changes use, and the root
// module's resources that have changes (managed ones first), with their
// provider and schema version. Resources deleted because they are no
// longer in the configuration are left out.
//
// A refresh-only plan has no resource changes; its configured resources
// are those with a recorded expansion, named with the provider their
// objects in state use.
func configJSON(p *plans.Plan, schemas providers.Schemas) *tfjson.Config {
	cfg := &tfjson.Config{ProviderConfigs: map[string]*tfjson.ProviderConfig{}, RootModule: &tfjson.ConfigModule{}}
	// Resources of child modules go under module_calls, addressed within
	// their module, as Terraform's document places them.
	seen := map[addrs.UniqueKey]bool{}
	for _, c := range sortedChanges(p.Changes) {
		addConfigResource(cfg, seen, c.Addr.ContainingResource(), c.Provider, schemas, notConfigured(c))
	}
	if p.Mode == plans.RefreshOnlyMode && p.PriorState != nil {
		for _, e := range p.Expansions {
			if rs := p.PriorState.Resource(e.Addr); rs != nil {
				addConfigResource(cfg, seen, e.Addr, rs.ProviderConfig, schemas, false)
			}
		}
	}
	sortConfigResources(cfg.RootModule)
	return cfg
}

// sortConfigResources puts managed resources first, then data resources,
// each by address, in a module and the modules it calls.
func sortConfigResources(m *tfjson.ConfigModule) {
	rs := m.Resources
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].Mode != rs[j].Mode {
			return rs[i].Mode == tfjson.ManagedResourceMode
		}
		return rs[i].Address < rs[j].Address
	})
	for _, mc := range m.ModuleCalls {
		sortConfigResources(mc.Module)
	}
}

// configModule returns the configuration document's module at static
// path p, adding module_calls entries on the way.
func configModule(cfg *tfjson.Config, p addrs.Module) *tfjson.ConfigModule {
	m := cfg.RootModule
	for _, name := range p {
		if m.ModuleCalls == nil {
			m.ModuleCalls = map[string]*tfjson.ModuleCall{}
		}
		mc := m.ModuleCalls[name]
		if mc == nil {
			mc = &tfjson.ModuleCall{Module: &tfjson.ConfigModule{}}
			m.ModuleCalls[name] = mc
		}
		m = mc.Module
	}
	return m
}

// notConfigured reports whether a change is about a resource the
// configuration no longer declares: deleted as not in configuration or as
// moved to an undeclared address, or forgotten by a removed block.
func notConfigured(c *plans.ResourceInstanceChange) bool {
	return c.ActionReason == plans.ReasonDeleteBecauseNoResourceConfig ||
		c.ActionReason == plans.ReasonDeleteBecauseNoMoveTarget || c.Action == plans.Forget
}

// addConfigResource records res and its provider configuration once;
// providerOnly records just the provider (a resource no longer
// configured).
func addConfigResource(cfg *tfjson.Config, seen map[addrs.UniqueKey]bool, res addrs.AbsResource, provider addrs.AbsProviderConfig, schemas providers.Schemas, providerOnly bool) {
	// A resource in a child module names an inherited provider as the
	// top-level module call above it sees it ("module.db:terraform", also
	// for module.db.module.inner), as Terraform's document does.
	key, module := providerConfigKey(provider), ""
	if !res.Module.IsRoot() {
		module = res.Module.Module()[:1].String()
		key = module + ":" + key
	}
	if _, ok := cfg.ProviderConfigs[key]; !ok {
		cfg.ProviderConfigs[key] = &tfjson.ProviderConfig{
			Name: provider.Provider.Type, FullName: provider.Provider.String(), Alias: provider.Alias, ModuleAddress: module,
		}
	}
	k := res.Config().UniqueKey()
	if providerOnly || seen[k] {
		return
	}
	seen[k] = true
	_, version := schemas.ResourceTypeSchema(provider.Provider, res.Resource.Mode, res.Resource.Type)
	m := configModule(cfg, res.Module.Module())
	m.Resources = append(m.Resources, &tfjson.ConfigResource{
		Address:           res.Resource.String(),
		Mode:              jsonMode(res.Resource.Mode),
		Type:              res.Resource.Type,
		Name:              res.Resource.Name,
		ProviderConfigKey: key,
		SchemaVersion:     uint64(version),
	})
}

// providerConfigKey names a provider configuration as the configuration
// document does: its local name (the type), with ".alias" for an alias.
func providerConfigKey(p addrs.AbsProviderConfig) string {
	if p.Alias != "" {
		return p.Provider.Type + "." + p.Alias
	}
	return p.Provider.Type
}
