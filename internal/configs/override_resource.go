package configs

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/hashicorp/hcl/v2"
)

// mergeResources merges an override file's resource and data blocks into
// the primary files' blocks of the same address.
func (b *moduleBuilder) mergeResources(resources []*Resource) {
	for _, or := range resources {
		r := b.mod.ResourceByAddr(or.Addr())
		if r != nil {
			b.report(r.merge(or))
			continue
		}
		if or.Mode == addrs.DataResourceMode {
			b.report(missingBase("Missing data resource to override",
				fmt.Sprintf("There is no %s data resource named %q. An override file can only override a data "+
					"block defined in a primary configuration file.", or.Type, or.Name), or.DeclRange))
			continue
		}
		b.report(missingBase("Missing resource to override",
			fmt.Sprintf("There is no %s resource named %q. An override file can only override a resource "+
				"block defined in a primary configuration file.", or.Type, or.Name), or.DeclRange))
	}
}

// merge lays or over r: the meta-arguments or sets replace r's, the
// lifecycle settings it sets replace those, and its body replaces r's
// arguments one by one and r's nested blocks type by type. Setting count
// does not clear for_each nor the reverse, as in Terraform; the provider
// address is resolved once all files are merged.
func (r *Resource) merge(or *Resource) hcl.Diagnostics {
	if or.Count != nil {
		r.Count = or.Count
	}
	if or.ForEach != nil {
		r.ForEach = or.ForEach
	}
	if or.ProviderConfigRef != nil {
		r.ProviderConfigRef = or.ProviderConfigRef
	}
	if r.Managed != nil && or.Managed != nil {
		r.Managed.merge(or.Managed)
	}
	r.Config = overrideBody(r.Config, or.Config)
	if len(or.DependsOn) != 0 {
		return dependsOnOverride(or.DependsOn[0])
	}
	return nil
}

func (m *ManagedResource) merge(om *ManagedResource) {
	if om.CreateBeforeDestroySet {
		m.CreateBeforeDestroy, m.CreateBeforeDestroySet = om.CreateBeforeDestroy, true
	}
	if om.PreventDestroySet {
		m.PreventDestroy, m.PreventDestroySet = om.PreventDestroy, true
		m.PreventDestroyExpr = om.PreventDestroyExpr
	}
	if len(om.IgnoreChanges) != 0 {
		m.IgnoreChanges = om.IgnoreChanges
	}
	if om.IgnoreAllChanges {
		m.IgnoreAllChanges = true
	}
}
