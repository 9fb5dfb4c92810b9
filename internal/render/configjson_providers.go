package render

import (
	"maps"
	"slices"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/getproviders"
	"github.com/cairn-iac/cairn/internal/providers"
)

// providerConfigsJSON adds to pcs the provider configurations of m and of
// the modules below it, keyed as Terraform 1.5.7 keys them ("NAME",
// "NAME.ALIAS", "module.a:NAME"), in the order Terraform adds them, as
// later entries look earlier ones up:
//
//  1. m's provider blocks, with their expressions;
//  2. m's required_providers entries and configuration_aliases that no
//     block configures;
//  3. the default configuration of every other provider m uses (implied
//     by a resource type): the implied default configurations, with
//     full_name, that Terraform lists for providers used without a
//     block;
//  4. per module call, the configurations its providers argument passes,
//     then the called module.
//
// An entry of a child module that stands for its caller's configuration
// (inherited or passed) records the caller's key as parentKey; configJSON
// points resources at that key and drops the entry.
func providerConfigsJSON(m *configs.Module, schemas providers.Schemas, pcs map[string]*providerConfigDoc) {
	path := m.Path.String()
	constraints := ownConstraints(m)
	parentPath, child := "", m.Parent != nil
	if child {
		parentPath = m.Parent.Path.String()
	}
	for _, k := range slices.Sorted(maps.Keys(m.ProviderConfigs)) {
		pc := m.ProviderConfigs[k]
		pcs[moduleKey(k, path)] = &providerConfigDoc{
			Name: pc.Name, FullName: pc.Source.String(), Alias: pc.Alias, ModuleAddress: path,
			VersionConstraint: constraints[pc.Source],
			Expressions:       blockExpressionsJSON(pc.Config, providerConfigSchema(schemas, pc.Source)),
		}
	}
	for _, name := range slices.Sorted(maps.Keys(m.RequiredProviders)) {
		rp := m.RequiredProviders[name]
		for _, a := range rp.Aliases {
			key := moduleKey(configs.ProviderConfigKey(a.Name, a.Alias), path)
			if _, ok := pcs[key]; !ok {
				pcs[key] = &providerConfigDoc{Name: rp.Name, FullName: rp.Source.String(), ModuleAddress: path, VersionConstraint: constraints[rp.Source]}
			}
		}
		key := moduleKey(name, path)
		if _, ok := pcs[key]; ok {
			continue
		}
		pc := &providerConfigDoc{Name: rp.Name, FullName: rp.Source.String(), ModuleAddress: path, VersionConstraint: constraints[rp.Source]}
		if child {
			pc.parentKey = sourceProviderKey(moduleKey(rp.Name, parentPath), pc.FullName, pcs)
		}
		pcs[key] = pc
	}
	for _, req := range ownProviders(m) {
		key := moduleKey(req.Type, path)
		if _, ok := pcs[key]; ok {
			continue
		}
		pc := &providerConfigDoc{Name: req.Type, FullName: req.String(), ModuleAddress: path}
		if child {
			pc.parentKey = sourceProviderKey(moduleKey(req.Type, parentPath), pc.FullName, pcs)
		}
		pcs[key] = pc
	}
	for _, name := range slices.Sorted(maps.Keys(m.ModuleCalls)) {
		mc := m.ModuleCalls[name]
		if mc.Module == nil {
			continue
		}
		childPath := mc.Module.Path.String()
		for _, pp := range mc.Providers {
			inChild := configs.ProviderConfigKey(pp.InChild.Name, pp.InChild.Alias)
			pc := &providerConfigDoc{Name: inChild, FullName: mc.Module.ProviderForLocalName(pp.InChild.Name).String(), ModuleAddress: childPath}
			pc.parentKey = sourceProviderKey(moduleKey(configs.ProviderConfigKey(pp.InParent.Name, pp.InParent.Alias), path), pc.FullName, pcs)
			pcs[moduleKey(inChild, childPath)] = pc
		}
		providerConfigsJSON(mc.Module, schemas, pcs)
	}
}

// ownProviders lists the providers m itself uses, as Terraform counts
// them for this document: those of its required_providers entries,
// provider blocks and resources (OwnProviderRequirements), and those of
// the resources its import blocks import into, named by their provider
// argument or implied by the resource type.
func ownProviders(m *configs.Module) []addrs.Provider {
	var out []addrs.Provider
	seen := map[addrs.Provider]bool{}
	add := func(p addrs.Provider) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, req := range m.OwnProviderRequirements() {
		add(req.Provider)
	}
	for _, imp := range m.Imports {
		name := imp.Target.Resource.ImpliedProviderType()
		if imp.ProviderConfigRef != nil {
			name = imp.ProviderConfigRef.Name
		}
		add(m.ProviderForLocalName(name))
	}
	return out
}

// ownConstraints returns, per provider m uses, the version constraints m
// alone writes for it, in Terraform's normalized form ("" when none).
// Constraints that do not parse are left out, as Terraform leaves them.
func ownConstraints(m *configs.Module) map[addrs.Provider]string {
	out := map[addrs.Provider]string{}
	for _, req := range m.OwnProviderRequirements() {
		var all getproviders.Constraints
		for _, vc := range req.Constraints {
			if cs, err := getproviders.ParseConstraints(vc.Constraint); err == nil {
				all = append(all, cs...)
			}
		}
		out[req.Provider] = all.String()
	}
	return out
}

// providerConfigSchema is p's configuration schema, or an empty one when
// the provider has none (or its schema was not loaded).
func providerConfigSchema(schemas providers.Schemas, p addrs.Provider) *configschema.Block {
	if s := schemas.ProviderConfigSchema(p); s != nil {
		return s
	}
	return &configschema.Block{}
}

// sourceProviderKey follows parent keys up from start while the entries
// are of the provider fullName, and returns the last key found: the
// configuration a module's entry stands for. "" when start is not such an
// entry.
func sourceProviderKey(start, fullName string, pcs map[string]*providerConfigDoc) string {
	found := ""
	for key := start; key != ""; {
		pc, ok := pcs[key]
		if !ok || pc.FullName != fullName {
			break
		}
		found, key = key, pc.parentKey
	}
	return found
}

// normaliseProviderKeys points every resource whose provider entry stands
// for a caller's configuration at that configuration's key, in m and the
// modules it calls.
func normaliseProviderKeys(m *moduleDoc, pcs map[string]*providerConfigDoc) {
	for _, r := range m.Resources {
		if pc, ok := pcs[r.ProviderConfigKey]; ok {
			if _, ok := pcs[pc.parentKey]; ok {
				r.ProviderConfigKey = pc.parentKey
			}
		}
	}
	for _, mc := range m.ModuleCalls {
		normaliseProviderKeys(&mc.Module, pcs)
	}
}
