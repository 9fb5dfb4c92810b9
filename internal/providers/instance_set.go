package providers

import (
	"context"
	"fmt"
	"sync"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/zclconf/go-cty/cty"
)

// InstanceSet holds the provider instances of one graph walk (a plan, an
// apply, a validation): one per provider configuration, started from a
// Library with the walk's context, so an interrupt stops them, and released
// together by Close when the walk ends. Safe for concurrent use.
type InstanceSet struct {
	lib *Library
	ctx context.Context

	mu        sync.Mutex
	instances map[addrs.UniqueKey]Interface
	// configs are the configurations the instances were configured with,
	// marks included (see Config).
	configs map[addrs.UniqueKey]cty.Value
}

// NewInstanceSet returns an empty set whose instances live as long as ctx.
func (l *Library) NewInstanceSet(ctx context.Context) *InstanceSet {
	return &InstanceSet{lib: l, ctx: ctx, instances: map[addrs.UniqueKey]Interface{}, configs: map[addrs.UniqueKey]cty.Value{}}
}

// Library returns the library the set starts instances from.
func (s *InstanceSet) Library() *Library { return s.lib }

// Configure starts the instance for addr and configures it (see
// Library.Configure) with config, which must be unmarked; marked is the
// same configuration with its marks, kept for Config (cty.NilVal when the
// caller has none). The diagnostics are the provider's, with attribute
// paths for the caller to locate.
func (s *InstanceSet) Configure(addr addrs.AbsProviderConfig, config, marked cty.Value, terraformVersion string) diags.Diagnostics {
	inst, ds := s.lib.Configure(s.ctx, addr.Provider, config, terraformVersion)
	if ds.HasErrors() {
		return ds
	}
	if ds = s.put(addr, inst, ds); !ds.HasErrors() && marked != cty.NilVal {
		s.mu.Lock()
		s.configs[addr.UniqueKey()] = marked
		s.mu.Unlock()
	}
	return ds
}

// Config returns the configuration the instance for addr was configured
// with, marks included, or cty.NilVal. A provider copies parts of it into
// the objects it manages (awscc's default tags into tags_all), and a part
// that is sensitive in the configuration is sensitive in the copy
// (configschema.Copy.FromProvider).
func (s *InstanceSet) Config(addr addrs.AbsProviderConfig) cty.Value {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.configs[addr.UniqueKey()]; ok {
		return v
	}
	return cty.NilVal
}

// Unconfigured starts an instance for addr that is never configured, for
// validation, which Terraform runs before any provider is configured.
func (s *InstanceSet) Unconfigured(addr addrs.AbsProviderConfig) diags.Diagnostics {
	inst, ds := s.lib.Start(s.ctx, addr.Provider)
	if ds.HasErrors() {
		return ds
	}
	return s.put(addr, inst, ds)
}

func (s *InstanceSet) put(addr addrs.AbsProviderConfig, inst Interface, ds diags.Diagnostics) diags.Diagnostics {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.instances[addr.UniqueKey()]; dup {
		_ = s.lib.Release(inst)
		return ds.Append(diags.Errorf("Provider configured twice", "%s was already started in this run; this is a bug in Cairn.", addr))
	}
	s.instances[addr.UniqueKey()] = inst
	return ds
}

// Get returns the instance for addr.
func (s *InstanceSet) Get(addr addrs.AbsProviderConfig) (Interface, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.instances[addr.UniqueKey()]
	if !ok {
		return nil, fmt.Errorf("provider %s is not configured", addr)
	}
	return p, nil
}

// Close releases every instance of the set.
func (s *InstanceSet) Close() {
	s.mu.Lock()
	all := s.instances
	s.instances = map[addrs.UniqueKey]Interface{}
	s.mu.Unlock()
	for _, p := range all {
		_ = s.lib.Release(p)
	}
}
