package providers

import (
	"context"
	"fmt"
	"sort"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
)

// Factory starts a new instance of a provider.
type Factory func() (Interface, error)

// Registry finds the factory for a provider source address. The command
// layer fills it with the built-in providers (and, later, plugins).
type Registry map[addrs.Provider]Factory

// Factory returns the factory for addr, or an error diagnostic saying the
// provider is not available.
func (r Registry) Factory(addr addrs.Provider) (Factory, diags.Diagnostics) {
	if f, ok := r[addr]; ok {
		return f, nil
	}
	var known []string
	for a := range r {
		known = append(known, a.ForDisplay())
	}
	sort.Strings(known)
	return nil, diags.Diagnostics{diags.Errorf("Provider not available",
		"The provider %s is not available to Cairn. Available providers: %v.", addr.ForDisplay(), known)}
}

// Schemas holds the schemas of every provider a run uses.
type Schemas map[addrs.Provider]*GetProviderSchemaResponse

// LoadSchemas starts one instance of each provider in addrs, asks for its
// schema and closes it.
func LoadSchemas(ctx context.Context, reg Registry, addrs []addrs.Provider) (Schemas, diags.Diagnostics) {
	var ds diags.Diagnostics
	out := Schemas{}
	for _, a := range addrs {
		if _, done := out[a]; done {
			continue
		}
		f, fds := reg.Factory(a)
		ds = ds.Append(fds)
		if f == nil {
			continue
		}
		p, err := f()
		if err != nil {
			ds = ds.Append(diags.Errorf("Failed to start provider", "Starting provider %s: %s.", a.ForDisplay(), err))
			continue
		}
		resp := p.GetProviderSchema(ctx)
		_ = p.Close()
		ds = ds.Append(resp.Diagnostics)
		out[a] = &resp
	}
	return out, ds
}

// ResourceTypeSchema returns the schema of a managed resource type (mode
// ManagedResourceMode) or data source (DataResourceMode), or nil.
func (s Schemas) ResourceTypeSchema(provider addrs.Provider, mode addrs.ResourceMode, typeName string) (*configschema.Block, int64) {
	ps := s[provider]
	if ps == nil {
		return nil, 0
	}
	var m map[string]Schema
	if mode == addrs.DataResourceMode {
		m = ps.DataSources
	} else {
		m = ps.ResourceTypes
	}
	sch, ok := m[typeName]
	if !ok {
		return nil, 0
	}
	return sch.Block, sch.Version
}

// ProviderConfigSchema returns the schema of a provider's configuration
// block, or an empty block if the provider is unknown.
func (s Schemas) ProviderConfigSchema(provider addrs.Provider) *configschema.Block {
	if ps := s[provider]; ps != nil && ps.Provider.Block != nil {
		return ps.Provider.Block
	}
	return &configschema.Block{}
}

// String for debugging.
func (s Schemas) String() string { return fmt.Sprintf("%d provider schemas", len(s)) }
