package configs

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/hashicorp/hcl/v2"
)

// ProviderMeta is a terraform { provider_meta "NAME" { ... } } block: data
// a module sends to every call of one provider about its resources (module
// authors use it to report which module manages what). The body is
// decoded against the provider's provider_meta schema, with no references
// allowed, as Terraform decodes it.
type ProviderMeta struct {
	Name      string // local name
	NameRange hcl.Range
	// Provider is the resolved source address of Name.
	Provider  addrs.Provider
	Config    hcl.Body
	DeclRange hcl.Range
}

func (b *moduleBuilder) addProviderMeta(block *hcl.Block) {
	pm := &ProviderMeta{Name: block.Labels[0], NameRange: block.LabelRanges[0], Config: block.Body, DeclRange: block.DefRange}
	if ds := checkProviderLocalName(pm.Name, pm.NameRange); ds.HasErrors() {
		b.report(ds)
		return
	}
	for _, prev := range b.mod.ProviderMetas {
		if prev.Name == pm.Name {
			b.report(hcl.Diagnostics{duplicateDiag("Duplicate provider_meta block",
				fmt.Sprintf("A provider_meta block for provider %q", pm.Name),
				"A module may send one provider_meta per provider: merge the blocks.", prev.DeclRange, pm.NameRange)})
			return
		}
	}
	b.mod.ProviderMetas = append(b.mod.ProviderMetas, pm)
}

// ProviderMetaFor returns the module's provider_meta block for provider p,
// or nil.
func (m *Module) ProviderMetaFor(p addrs.Provider) *ProviderMeta {
	for _, pm := range m.ProviderMetas {
		if pm.Provider == p {
			return pm
		}
	}
	return nil
}
