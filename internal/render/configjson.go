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
func configJSON(p *plans.Plan, schemas providers.Schemas) *tfjson.Config {
	cfg := &tfjson.Config{ProviderConfigs: map[string]*tfjson.ProviderConfig{}, RootModule: &tfjson.ConfigModule{}}
	seen := map[addrs.UniqueKey]bool{}
	for _, c := range sortedChanges(p.Changes) {
		key := providerConfigKey(c.Provider)
		if _, ok := cfg.ProviderConfigs[key]; !ok {
			cfg.ProviderConfigs[key] = &tfjson.ProviderConfig{
				Name: c.Provider.Provider.Type, FullName: c.Provider.Provider.String(), Alias: c.Provider.Alias,
			}
		}
		res := c.Addr.ContainingResource()
		if c.ActionReason == plans.ReasonDeleteBecauseNoResourceConfig || seen[res.UniqueKey()] {
			continue
		}
		seen[res.UniqueKey()] = true
		_, version := schemas.ResourceTypeSchema(c.Provider.Provider, res.Resource.Mode, res.Resource.Type)
		cfg.RootModule.Resources = append(cfg.RootModule.Resources, &tfjson.ConfigResource{
			Address:           res.String(),
			Mode:              jsonMode(res.Resource.Mode),
			Type:              res.Resource.Type,
			Name:              res.Resource.Name,
			ProviderConfigKey: key,
			SchemaVersion:     uint64(version),
		})
	}
	// Managed resources come first, then data resources, each by address.
	rs := cfg.RootModule.Resources
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].Mode != rs[j].Mode {
			return rs[i].Mode == tfjson.ManagedResourceMode
		}
		return rs[i].Address < rs[j].Address
	})
	return cfg
}

// providerConfigKey names a provider configuration as the configuration
// document does: its local name (the type), with ".alias" for an alias.
func providerConfigKey(p addrs.AbsProviderConfig) string {
	if p.Alias != "" {
		return p.Provider.Type + "." + p.Alias
	}
	return p.Provider.Type
}
