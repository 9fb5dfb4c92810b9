package tfproto6

import (
	"context"
	"fmt"
	"sync"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/wire"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/zclconf/go-cty/cty"
)

// Provider adapts a tfprotov6.ProviderServer to providers.Interface. It is
// safe for concurrent use when the server is (terraform-plugin-framework
// servers are).
type Provider struct {
	server   tfprotov6.ProviderServer
	cache    *SchemaCache
	annotate func(*providers.GetProviderSchemaResponse)
}

var _ providers.Interface = (*Provider)(nil)

// SchemaCache holds one provider's converted schema so that the adapters of
// the same provider (one per provider configuration, one per short-lived
// schema lookup) ask a server for it only once. The schema it holds is
// shared and must not be modified. The zero value is ready to use.
type SchemaCache struct {
	once sync.Once
	resp providers.GetProviderSchemaResponse
	// lists and identity are the answer's list resource schemas and the
	// provider's identities (see identity.go, list_resource.go).
	lists providers.GetListResourceSchemasResponse
	// ephemeral holds the ephemeral resource schemas (protocol 6.7).
	ephemeral providers.GetEphemeralResourceSchemasResponse
	identity  identityCache
}

// Option configures an adapter.
type Option func(*Provider)

// WithSchemaCache makes the adapter take its schema from c, filling it
// from this adapter's server if no adapter did yet. Every adapter sharing c
// must serve the same provider.
func WithSchemaCache(c *SchemaCache) Option {
	return func(p *Provider) { p.cache = c }
}

// WithSchemaAnnotation has annotate add to the converted schema, once,
// what the protocol cannot carry: configschema's Masked flags and Copies,
// which a provider built into Cairn declares for the engine and the
// renderers. Every adapter sharing a cache must pass the same function.
func WithSchemaAnnotation(annotate func(*providers.GetProviderSchemaResponse)) Option {
	return func(p *Provider) { p.annotate = annotate }
}

// New returns server as a providers.Interface. The server's schema is
// fetched on first use and cached (see WithSchemaCache to share it).
// New panics if server is nil: that is a programming error.
func New(server tfprotov6.ProviderServer, opts ...Option) providers.Interface {
	if server == nil {
		panic("tfproto6.New: nil server")
	}
	p := &Provider{server: server}
	for _, o := range opts {
		o(p)
	}
	if p.cache == nil {
		p.cache = &SchemaCache{}
	}
	return p
}

// schema returns the converted schema, calling the server once.
func (p *Provider) schema(ctx context.Context) *providers.GetProviderSchemaResponse {
	p.cache.once.Do(func() {
		var resp *tfprotov6.GetProviderSchemaResponse
		err := wire.Guard(func() error {
			var err error
			resp, err = p.server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
			return err
		})
		switch {
		case err != nil:
			p.cache.resp.Diagnostics = callFailed("GetProviderSchema", err)
		case resp == nil:
			p.cache.resp.Diagnostics = callFailed("GetProviderSchema", fmt.Errorf("no response"))
		default:
			p.cache.resp = convertProviderSchema(resp)
			p.cache.lists = convertListSchemas(resp)
			p.cache.ephemeral = convertEphemeralSchemas(resp)
			if p.annotate != nil {
				p.annotate(&p.cache.resp)
			}
		}
	})
	return &p.cache.resp
}

// GetProviderSchema implements providers.Interface.
func (p *Provider) GetProviderSchema(ctx context.Context) providers.GetProviderSchemaResponse {
	return *p.schema(ctx)
}

// resourceType returns the implied type of a managed resource type, or an
// error diagnostic when the provider has no such type (or no schema).
func (p *Provider) resourceType(ctx context.Context, name string) (cty.Type, diags.Diagnostics) {
	s := p.schema(ctx)
	if s.Diagnostics.HasErrors() {
		return cty.NilType, s.Diagnostics
	}
	rs, ok := s.ResourceTypes[name]
	if !ok {
		return cty.NilType, diags.Diagnostics{diags.Errorf("Unsupported resource type", "The provider has no resource type %q.", name)}
	}
	return rs.Block.ImpliedType(), nil
}

// dataSourceType is resourceType for data sources.
func (p *Provider) dataSourceType(ctx context.Context, name string) (cty.Type, diags.Diagnostics) {
	s := p.schema(ctx)
	if s.Diagnostics.HasErrors() {
		return cty.NilType, s.Diagnostics
	}
	ds, ok := s.DataSources[name]
	if !ok {
		return cty.NilType, diags.Diagnostics{diags.Errorf("Unsupported data source", "The provider has no data source %q.", name)}
	}
	return ds.Block.ImpliedType(), nil
}

// providerType and metaType return the types of the provider's
// configuration and provider_meta (an empty object when it has none).
func (p *Provider) providerType(ctx context.Context) cty.Type {
	return p.schema(ctx).Provider.Block.ImpliedType()
}

func (p *Provider) metaType(ctx context.Context) cty.Type {
	return p.schema(ctx).ProviderMeta.Block.ImpliedType()
}

// StopProvider implements providers.Interface.
func (p *Provider) StopProvider(ctx context.Context) error {
	var resp *tfprotov6.StopProviderResponse
	err := wire.Guard(func() error {
		var err error
		resp, err = p.server.StopProvider(ctx, &tfprotov6.StopProviderRequest{})
		return err
	})
	if err != nil {
		return fmt.Errorf("stopping provider: %w", err)
	}
	if resp != nil && resp.Error != "" {
		return fmt.Errorf("stopping provider: %s", resp.Error)
	}
	return nil
}

// Close implements providers.Interface. An in-process server holds nothing
// to release.
func (p *Provider) Close() error { return nil }
