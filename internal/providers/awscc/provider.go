package awscc

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/tfproto6"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// Addr is the provider's source address. Configurations name it as
// "hashicorp/awscc" or imply it with an awscc_ resource type.
var Addr = addrs.NewDefaultProvider("awscc")

// Provider is the awscc provider over one catalog of resource types. It is
// immutable once built and safe for concurrent use; every server it makes
// (one per provider configuration) shares the catalog and one converted
// schema.
type Provider struct {
	// testAPI and testBackoff, set by this package's tests only, replace
	// the Cloud Control client and the polling intervals.
	testAPI     api
	testBackoff *backoff

	dir     string
	catalog *cfnschema.Catalog
	// deferred replaces catalog in a provider whose types are translated
	// on first use (NewDeferred).
	deferred *deferredTypes
	// problems are the catalog's load diagnostics, served as one warning.
	problems cfnschema.Diagnostics
	schemas  *tfproto6.SchemaCache
	// listCacheTTL is how long a ListResources page answers reads in each
	// configured runtime; 0 disables the list cache.
	listCacheTTL time.Duration
}

var _ provider.Provider = (*Provider)(nil)

// New loads every CloudFormation schema in dir and returns the provider
// serving them. A schema file with problems never stops the others: its
// diagnostics (file and JSON pointer) are kept, returned by Problems and
// served as a warning with the provider schema. The error says the
// directory cannot be read or holds no loadable schema at all.
func New(dir string, opts ...cfnschema.Option) (*Provider, error) {
	catalog, ds := cfnschema.LoadDir(dir, opts...)
	if len(catalog.Types()) == 0 {
		if errs := ds.Errors(); len(errs) > 0 && errs[0].File == dir {
			return nil, fmt.Errorf("reading CloudFormation schemas from %s: %s", dir, errs[0].Detail)
		}
		return nil, fmt.Errorf("no loadable CloudFormation schema (*.json) in %s", dir)
	}
	p := newProvider(dir, ds)
	p.catalog = catalog
	return p, nil
}

// newProvider is the one place a Provider gets its defaults, whichever
// way its types are found (a directory, a catalog, deferred loading).
func newProvider(origin string, problems cfnschema.Diagnostics) *Provider {
	return &Provider{dir: origin, problems: problems, schemas: &tfproto6.SchemaCache{}, listCacheTTL: DefaultListCacheTTL}
}

// WithListCacheTTL returns a provider like p whose configured runtimes
// answer refresh reads from ListResources pages for at most d after the
// first page of a walk was requested (see listCache); d <= 0 disables the
// cache, so that every read is a GetResource. The default is
// DefaultListCacheTTL, right for one command; a long-lived controller sets
// its poll interval, so that each poll sees the cloud afresh. The copy
// shares p's catalog and converted schemas; p is unchanged.
func (p *Provider) WithListCacheTTL(d time.Duration) *Provider {
	cp := *p
	cp.listCacheTTL = max(d, 0)
	return &cp
}

// Catalog returns the resource types the provider serves; nil for a
// provider made by NewDeferred, which holds no catalog.
func (p *Provider) Catalog() *cfnschema.Catalog { return p.catalog }

// servedTypes returns every type the provider serves, translating the
// types of a deferred provider.
func (p *Provider) servedTypes() []*cfnschema.ResourceType {
	if p.deferred != nil {
		return p.deferred.served()
	}
	return p.catalog.Types()
}

// typeByTerraformName returns the type of a resource name, or nil.
func (p *Provider) typeByTerraformName(name string) *cfnschema.ResourceType {
	if p.deferred != nil {
		return p.deferred.byTerraformName(name)
	}
	return p.catalog.ByTerraformName(name)
}

// Problems returns the diagnostics of loading the schema directory.
func (p *Provider) Problems() cfnschema.Diagnostics { return p.problems }

// Server returns a new protocol 6 server for one provider configuration.
// Its StopProvider ends every operation in flight (see server).
func (p *Provider) Server() tfprotov6.ProviderServer {
	stop, cancel := context.WithCancel(context.Background())
	in := &instance{Provider: p, stop: stop}
	return &server{ProviderServer: providerserver.NewProtocol6(in)(), p: p, cancel: cancel}
}

// instance is the provider as one server serves it: the shared catalog
// and the server's stop context, which Configure hands to the runtime.
type instance struct {
	*Provider
	stop context.Context
}

var (
	_ provider.Provider                  = (*instance)(nil)
	_ provider.ProviderWithListResources = (*instance)(nil)
)

// server is the framework's server with the schema errors added to the
// GetProviderSchema answer only. (Reported from Schema, the framework would
// repeat them in every answer that reads the provider schema.) Only errors
// (types left out) are reported there: warnings about parts of a schema
// would repeat on every plan for types the configuration may not use;
// "cairn cfn problems" lists them all, and "cairn cfn explain" a type's.
//
// StopProvider is the engine's Ctrl-C. The framework's does nothing, so
// the server cancels the stop context every operation watches: polls end,
// requests in flight are cancelled, and what is known is returned.
type server struct {
	tfprotov6.ProviderServer
	p      *Provider
	cancel context.CancelFunc
}

var _ tfprotov6.ProviderServerWithListResource = (*server)(nil)

// ListResource and ValidateListResourceConfig pass the list resource RPCs
// (protocol 6.10) through: tfprotov6.ProviderServer, which server embeds,
// does not include them yet.
func (s *server) ListResource(ctx context.Context, req *tfprotov6.ListResourceRequest) (*tfprotov6.ListResourceServerStream, error) {
	return s.ProviderServer.(tfprotov6.ProviderServerWithListResource).ListResource(ctx, req)
}

func (s *server) ValidateListResourceConfig(ctx context.Context, req *tfprotov6.ValidateListResourceConfigRequest) (*tfprotov6.ValidateListResourceConfigResponse, error) {
	return s.ProviderServer.(tfprotov6.ProviderServerWithListResource).ValidateListResourceConfig(ctx, req)
}

func (s *server) StopProvider(ctx context.Context, req *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	s.cancel()
	return s.ProviderServer.StopProvider(ctx, req)
}

func (s *server) GetProviderSchema(ctx context.Context, req *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	resp, err := s.ProviderServer.GetProviderSchema(ctx, req)
	if err == nil && resp != nil && len(s.p.problems.Errors()) > 0 {
		resp.Diagnostics = append(resp.Diagnostics, &tfprotov6.Diagnostic{
			Severity: tfprotov6.DiagnosticSeverityWarning,
			Summary:  s.p.problemsSummary(),
			Detail:   s.p.problemsDetail(),
		})
	}
	return resp, err
}

// Factory returns a factory of in-process provider instances for the
// engine. Instances share the provider's converted schema, so only the
// first one asks a server for it.
func (p *Provider) Factory() providers.Factory {
	return func() (providers.Interface, error) {
		return tfproto6.New(p.Server(), tfproto6.WithSchemaCache(p.schemas), tfproto6.WithSchemaAnnotation(p.annotate)), nil
	}
}

// Metadata implements provider.Provider.
func (p *Provider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "awscc"
}

// Schema implements provider.Provider: the provider block's schema.
func (p *Provider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = configSchema()
}

func (p *Provider) problemsSummary() string {
	return count(len(p.problems.Errors()), "CloudFormation schema") + " could not be loaded"
}

// count says "1 thing" or "n things".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// problemsDetail lists every problem on its own line: file (relative to
// the directory), line and column, severity, summary, JSON pointer and
// detail.
func (p *Provider) problemsDetail() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Loading %s: a type with an error is not available; other types are not affected. \"cairn cfn problems\" lists every problem.\n", p.dir)
	for _, d := range p.problems.Errors() {
		if rel, err := filepath.Rel(p.dir, d.File); err == nil && !strings.HasPrefix(rel, "..") {
			d.File = rel
		}
		// An indented line is printed as it is, not word-wrapped, so each
		// problem stays on one line.
		b.WriteString("\n  ")
		b.WriteString(strings.Join(strings.Fields(d.String()), " "))
	}
	return b.String()
}

// Resources implements provider.Provider: one resource per servable type.
func (p *Provider) Resources(context.Context) []func() resource.Resource {
	if p.deferred != nil {
		return p.deferred.resources()
	}
	types := p.catalog.Types()
	out := make([]func() resource.Resource, 0, len(types))
	for _, t := range types {
		out = append(out, func() resource.Resource { return &ccResource{t: t} })
	}
	return out
}

// DataSources implements provider.Provider: a singular data source per
// type and a plural one per type that can be listed.
func (p *Provider) DataSources(context.Context) []func() datasource.DataSource {
	if p.deferred != nil {
		return p.deferred.dataSources()
	}
	types := p.catalog.Types()
	out := make([]func() datasource.DataSource, 0, 2*len(types))
	for _, t := range types {
		out = append(out, func() datasource.DataSource { return &ccDataSource{t: t} })
		if t.PluralName != "" {
			out = append(out, func() datasource.DataSource { return &ccDataSource{t: t, plural: true} })
		}
	}
	return out
}
