package providers

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/zclconf/go-cty/cty"
)

// Library is the providers of one command run. It owns two things the
// engine must not scatter:
//
//   - the schema cache: each provider is asked for its schema once, however
//     many plans, applies, renderers and commands want it;
//   - the lifetime of provider instances: every instance it starts is
//     stopped (StopProvider) when the context it was started with is
//     cancelled, and closed by Release or, at the latest, by Close.
//
// The instance a schema was read from is kept and handed to the next Start
// of that provider, so a provider that runs as a plugin process is not
// started twice just to be configured. Safe for concurrent use.
type Library struct {
	reg Registry

	mu      sync.Mutex
	schemas map[addrs.Provider]*schemaEntry
	idle    map[addrs.Provider][]Interface
	live    map[*liveInstance]struct{}
	closed  bool
}

type schemaEntry struct {
	once  sync.Once
	resp  *GetProviderSchemaResponse
	diags diags.Diagnostics
}

// liveInstance is a started instance and how to stop watching its context.
type liveInstance struct {
	p    Interface
	stop func() bool
}

// NewLibrary returns a library over the providers reg offers.
func NewLibrary(reg Registry) *Library {
	return &Library{
		reg: reg, schemas: map[addrs.Provider]*schemaEntry{},
		idle: map[addrs.Provider][]Interface{}, live: map[*liveInstance]struct{}{},
	}
}

// Available reports whether the library can start provider p, with a
// diagnostic listing what it has when it cannot.
func (l *Library) Available(p addrs.Provider) diags.Diagnostics {
	_, ds := l.reg.Factory(p)
	return ds
}

// Schema returns provider p's schema, asking the provider on first use.
// The response is shared: callers must not modify it.
func (l *Library) Schema(ctx context.Context, p addrs.Provider) (*GetProviderSchemaResponse, diags.Diagnostics) {
	l.mu.Lock()
	e := l.schemas[p]
	if e == nil {
		e = &schemaEntry{}
		l.schemas[p] = e
	}
	l.mu.Unlock()
	e.once.Do(func() { e.resp, e.diags = l.fetchSchema(ctx, p) })
	return e.resp, e.diags
}

// fetchSchema starts an instance, reads its schema and keeps the instance
// idle for the next Start.
func (l *Library) fetchSchema(ctx context.Context, p addrs.Provider) (*GetProviderSchemaResponse, diags.Diagnostics) {
	inst, ds := l.newInstance(p)
	if ds.HasErrors() {
		return nil, ds
	}
	resp := inst.GetProviderSchema(ctx)
	if ep, ok := inst.(EphemeralResourceProvider); ok && !resp.Diagnostics.HasErrors() {
		eresp := ep.GetEphemeralResourceSchemas(ctx)
		resp.EphemeralResources = eresp.EphemeralResourceTypes
		resp.Diagnostics = resp.Diagnostics.Append(eresp.Diagnostics)
	}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		_ = inst.Close()
	} else {
		l.idle[p] = append(l.idle[p], inst)
		l.mu.Unlock()
	}
	return &resp, ds.Append(resp.Diagnostics)
}

// Schemas returns the schemas of every provider in ps; a provider that
// failed to answer is left out, with its diagnostics.
func (l *Library) Schemas(ctx context.Context, ps []addrs.Provider) (Schemas, diags.Diagnostics) {
	var ds diags.Diagnostics
	out := make(Schemas, len(ps))
	for _, p := range ps {
		if _, done := out[p]; done {
			continue
		}
		resp, sds := l.Schema(ctx, p)
		ds = ds.Append(sds)
		if resp != nil {
			out[p] = resp
		}
	}
	return out, ds
}

// Start returns a new, unconfigured instance of provider p, which the
// library stops when ctx is cancelled. The caller configures it (or only
// validates with it) and gives it back with Release.
func (l *Library) Start(ctx context.Context, p addrs.Provider) (Interface, diags.Diagnostics) {
	if err := ctx.Err(); err != nil {
		return nil, diags.Diagnostics{diags.Errorf("Failed to start provider", "Starting provider %s: %s.", p.ForDisplay(), err)}
	}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil, diags.Diagnostics{diags.Errorf("Failed to start provider", "Starting provider %s: the run is over.", p.ForDisplay())}
	}
	var inst Interface
	if idle := l.idle[p]; len(idle) > 0 {
		inst, l.idle[p] = idle[len(idle)-1], idle[:len(idle)-1]
	}
	l.mu.Unlock()
	var ds diags.Diagnostics
	if inst == nil {
		if inst, ds = l.newInstance(p); ds.HasErrors() {
			return nil, ds
		}
	}
	li := &liveInstance{p: inst}
	li.stop = context.AfterFunc(ctx, func() { _ = inst.StopProvider(context.WithoutCancel(ctx)) })
	l.mu.Lock()
	l.live[li] = struct{}{}
	l.mu.Unlock()
	return &tracked{Interface: inst, lib: l, li: li}, ds
}

// Configure starts an instance of provider p (as Start does: stopped when
// ctx is cancelled, closed by Release) and configures it (see Configure).
// An instance that fails to configure is released.
func (l *Library) Configure(ctx context.Context, p addrs.Provider, config cty.Value, terraformVersion string) (Interface, diags.Diagnostics) {
	inst, ds := l.Start(ctx, p)
	if ds.HasErrors() {
		return nil, ds
	}
	ds = ds.Append(Configure(ctx, inst, config, terraformVersion))
	if ds.HasErrors() {
		_ = l.Release(inst)
		return nil, ds
	}
	return inst, ds
}

// Configure configures inst the way every front end must: config goes
// through ValidateProviderConfig, and the configuration the provider
// prepared there (protocol 5 providers fill in defaults) is what
// ConfigureProvider gets. config must be unmarked. The diagnostics are
// the provider's, with attribute paths for the caller to locate.
func Configure(ctx context.Context, inst Interface, config cty.Value, terraformVersion string) diags.Diagnostics {
	vresp := inst.ValidateProviderConfig(ctx, ValidateProviderConfigRequest{Config: config})
	ds := vresp.Diagnostics
	if ds.HasErrors() {
		return ds
	}
	prepared := config
	if vresp.PreparedConfig != cty.NilVal && !vresp.PreparedConfig.IsNull() {
		prepared = vresp.PreparedConfig
	}
	return ds.Append(inst.ConfigureProvider(ctx, ConfigureProviderRequest{TerraformVersion: terraformVersion, Config: prepared}).Diagnostics)
}

func (l *Library) newInstance(p addrs.Provider) (Interface, diags.Diagnostics) {
	f, ds := l.reg.Factory(p)
	if f == nil {
		return nil, ds
	}
	inst, err := f()
	if err != nil {
		return nil, ds.Append(diags.Errorf("Failed to start provider", "Starting provider %s: %s.", p.ForDisplay(), err))
	}
	return inst, ds
}

// Release closes an instance Start returned. Releasing twice does nothing.
func (l *Library) Release(inst Interface) error {
	t, ok := inst.(*tracked)
	if !ok {
		return fmt.Errorf("releasing a provider instance the library did not start")
	}
	l.mu.Lock()
	_, live := l.live[t.li]
	delete(l.live, t.li)
	l.mu.Unlock()
	if !live {
		return nil
	}
	t.li.stop()
	return t.li.p.Close()
}

// Close closes every instance: those still in use and the idle ones. The
// library starts nothing afterwards.
func (l *Library) Close() error {
	l.mu.Lock()
	l.closed = true
	var all []Interface
	for li := range l.live {
		li.stop()
		all = append(all, li.p)
	}
	for _, idle := range l.idle {
		all = append(all, idle...)
	}
	l.live, l.idle = map[*liveInstance]struct{}{}, map[addrs.Provider][]Interface{}
	l.mu.Unlock()
	var first error
	for _, p := range all {
		if err := p.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// tracked is an instance the library started: the provider itself, plus
// the bookkeeping Release needs.
type tracked struct {
	Interface
	lib *Library
	li  *liveInstance
}

// Close releases the instance to its library, so code that holds an
// instance and closes it does the right thing.
func (t *tracked) Close() error { return t.lib.Release(t) }

// ResourceSchema returns the schema of the objects of resource r, or nil:
// ResourceTypeSchema for a resource address (a states.SchemaFunc).
func (s Schemas) ResourceSchema(provider addrs.Provider, r addrs.Resource) *configschema.Block {
	schema, _ := s.ResourceTypeSchema(provider, r.Mode, r.Type)
	return schema
}

// ResourceTypeSchema returns the schema of a managed resource type (mode
// ManagedResourceMode), data source (DataResourceMode) or ephemeral
// resource type (EphemeralResourceMode), or nil.
func (s Schemas) ResourceTypeSchema(provider addrs.Provider, mode addrs.ResourceMode, typeName string) (*configschema.Block, int64) {
	ps := s[provider]
	if ps == nil {
		return nil, 0
	}
	var m map[string]Schema
	switch mode {
	case addrs.DataResourceMode:
		m = ps.DataSources
	case addrs.EphemeralResourceMode:
		m = ps.EphemeralResources
	default:
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

// Schemas holds the schemas of every provider a run uses.
type Schemas map[addrs.Provider]*GetProviderSchemaResponse

// Sorted lists the providers of s in order, for deterministic output.
func (s Schemas) Sorted() []addrs.Provider {
	out := make([]addrs.Provider, 0, len(s))
	for p := range s {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}
