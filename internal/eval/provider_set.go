package eval

import (
	"context"
	"fmt"
	"github.com/cairn-iac/cairn/internal/marks"
	"sync"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/zclconf/go-cty/cty"
)

// ProviderSet starts and configures provider instances, one per provider
// configuration, and closes them all at the end of a run.
type ProviderSet struct {
	reg     providers.Registry
	schemas providers.Schemas

	mu        sync.Mutex
	instances map[addrs.UniqueKey]providers.Interface
}

// NewProviderSet returns an empty set.
func NewProviderSet(reg providers.Registry, schemas providers.Schemas) *ProviderSet {
	return &ProviderSet{reg: reg, schemas: schemas, instances: map[addrs.UniqueKey]providers.Interface{}}
}

// Configure starts the provider for addr and configures it with the
// evaluated body of its provider block (cfg may be nil: an empty
// configuration). Errors are returned as diagnostics about the block.
func (s *ProviderSet) Configure(ctx context.Context, addr addrs.AbsProviderConfig, cfg *configs.Provider, env *Env) diags.Diagnostics {
	f, ds := s.reg.Factory(addr.Provider)
	if f == nil {
		return ds
	}
	p, err := f()
	if err != nil {
		return ds.Append(diags.Errorf("Failed to start provider", "Starting %s: %s.", addr, err))
	}
	schema := s.schemas.ProviderConfigSchema(addr.Provider)
	config := cty.EmptyObjectVal
	if schema != nil {
		config = cty.NullVal(schema.ImpliedType())
	}
	fallback := addr.String()
	if cfg != nil {
		val, vds := env.Scope().EvalBlock(cfg.Config, schema)
		ds = ds.Append(vds)
		if vds.HasErrors() {
			_ = p.Close()
			return ds
		}
		config = val
	} else if schema != nil {
		config, _ = env.Scope().EvalBlock(emptyBody{}, schema)
	}
	unmarked := marks.Strip(config)
	vresp := p.ValidateProviderConfig(ctx, providers.ValidateProviderConfigRequest{Config: unmarked})
	ds = ds.Append(providerDiags(vresp.Diagnostics, cfg, fallback))
	if !vresp.Diagnostics.HasErrors() {
		cresp := p.ConfigureProvider(ctx, providers.ConfigureProviderRequest{TerraformVersion: configs.LanguageVersion, Config: unmarked})
		ds = ds.Append(providerDiags(cresp.Diagnostics, cfg, fallback))
	}
	if ds.HasErrors() {
		_ = p.Close()
		return ds
	}
	s.mu.Lock()
	s.instances[addr.UniqueKey()] = p
	s.mu.Unlock()
	return ds
}

// Get returns the configured instance for addr.
func (s *ProviderSet) Get(addr addrs.AbsProviderConfig) (providers.Interface, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.instances[addr.UniqueKey()]
	if !ok {
		return nil, fmt.Errorf("provider %s is not configured", addr)
	}
	return p, nil
}

// Close closes every instance.
func (s *ProviderSet) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, p := range s.instances {
		_ = p.Close()
		delete(s.instances, k)
	}
}

// Stop asks every instance to cancel in-flight work (on interrupt).
func (s *ProviderSet) Stop(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.instances {
		_ = p.StopProvider(ctx)
	}
}

func providerDiags(ds diags.Diagnostics, cfg *configs.Provider, addr string) diags.Diagnostics {
	if cfg != nil {
		return ds.InBody(cfg.Config, cfg.DeclRange)
	}
	return ds.WithAddress(addr)
}
