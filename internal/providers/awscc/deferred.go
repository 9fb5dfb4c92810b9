package awscc

import (
	"context"
	"fmt"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/cairn-iac/cairn/cfnschema"
)

// DeferredType names a type of a provider whose types are translated
// when first used (NewDeferred): what the provider must know of every
// type before translating any, as a catalog records it.
type DeferredType struct {
	TypeName, TerraformName string
	// PluralName is the plural data source's name; empty for none.
	PluralName string
	// Suppressed types are known but not served, as in a catalog.
	Suppressed bool
	// Listable types have a list handler: they are list resources too.
	Listable bool
}

// TypeLoader translates one type of a deferred provider, exactly as a
// catalog of the whole set would have it.
type TypeLoader func(typeName string) (*cfnschema.ResourceType, error)

// NewDeferred returns the provider serving types, each translated by
// load when an operation first needs it: a plugin process asked for one
// type's plan pays for that type, not for the 1,489 of the set. (The
// framework lists every resource's name at its first operation, which
// the names here answer.) problems are the set's load diagnostics and
// origin where it came from, as for NewFromCatalog. The types must be
// unique by both names, as a catalog's are.
func NewDeferred(types []DeferredType, load TypeLoader, problems cfnschema.Diagnostics, origin string) *Provider {
	d := &deferredTypes{load: load, slots: make([]deferredSlot, len(types)), byCFN: map[string]int{}, byTF: map[string]int{}}
	for i, t := range types {
		d.slots[i].ref = t
		d.byCFN[t.TypeName], d.byTF[t.TerraformName] = i, i
	}
	p := newProvider(origin, problems)
	p.deferred = d
	return p
}

// deferredTypes holds a deferred provider's types, each translated at
// most once and shared by every server of the provider.
type deferredTypes struct {
	load        TypeLoader
	slots       []deferredSlot
	byCFN, byTF map[string]int
}

type deferredSlot struct {
	ref  DeferredType
	once sync.Once
	t    *cfnschema.ResourceType
	err  error
}

// resolve translates slot i on first use.
func (d *deferredTypes) resolve(i int) (*cfnschema.ResourceType, error) {
	s := &d.slots[i]
	s.once.Do(func() {
		s.t, s.err = d.load(s.ref.TypeName)
		if s.err == nil && s.t == nil {
			s.err = fmt.Errorf("%s did not load", s.ref.TypeName)
		}
	})
	return s.t, s.err
}

// byTerraformName returns the translated type of a resource name, nil
// when there is none or it does not translate.
func (d *deferredTypes) byTerraformName(name string) *cfnschema.ResourceType {
	i, ok := d.byTF[name]
	if !ok {
		return nil
	}
	t, _ := d.resolve(i)
	return t
}

// served returns every type that can be served, translating it.
func (d *deferredTypes) served() []*cfnschema.ResourceType {
	var out []*cfnschema.ResourceType
	for i := range d.slots {
		if d.slots[i].ref.Suppressed {
			continue
		}
		if t, err := d.resolve(i); err == nil {
			out = append(out, t)
		}
	}
	return out
}

// resources returns a deferred resource per servable type.
func (d *deferredTypes) resources() []func() resource.Resource {
	out := make([]func() resource.Resource, 0, len(d.slots))
	for i := range d.slots {
		if !d.slots[i].ref.Suppressed {
			out = append(out, func() resource.Resource { return &deferredResource{d: d, i: i} })
		}
	}
	return out
}

// dataSources returns a deferred singular data source per servable type
// and a plural one per type that has it.
func (d *deferredTypes) dataSources() []func() datasource.DataSource {
	out := make([]func() datasource.DataSource, 0, 2*len(d.slots))
	for i := range d.slots {
		ref := d.slots[i].ref
		if ref.Suppressed {
			continue
		}
		out = append(out, func() datasource.DataSource { return &deferredDataSource{d: d, i: i} })
		if ref.PluralName != "" {
			out = append(out, func() datasource.DataSource { return &deferredDataSource{d: d, i: i, plural: true} })
		}
	}
	return out
}

// listResources returns a deferred list resource per servable type
// that can be listed.
func (d *deferredTypes) listResources() []func() list.ListResource {
	var out []func() list.ListResource
	for i := range d.slots {
		if ref := d.slots[i].ref; ref.Listable && !ref.Suppressed {
			out = append(out, func() list.ListResource { return &deferredListResource{d: d, i: i} })
		}
	}
	return out
}

// translated returns the type of slot i, or adds an error diagnostic
// saying it did not translate.
func (d *deferredTypes) translated(i int, ds *diag.Diagnostics) (*cfnschema.ResourceType, bool) {
	t, err := d.resolve(i)
	if err != nil {
		ds.AddError("Cannot load "+d.slots[i].ref.TypeName, "The awscc provider could not translate the type's CloudFormation schema: "+err.Error()+".")
		return nil, false
	}
	return t, true
}

// deferredResource is a ccResource whose type is translated on first
// use: Metadata answers from the name alone (the framework asks every
// resource's name before any operation); every other method translates
// the type and hands over to the ccResource. It implements exactly the
// interfaces ccResource does (TestDeferredInterfaces).
type deferredResource struct {
	d     *deferredTypes
	i     int
	inner *ccResource
}

var (
	_ resource.Resource                = (*deferredResource)(nil)
	_ resource.ResourceWithConfigure   = (*deferredResource)(nil)
	_ resource.ResourceWithImportState = (*deferredResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*deferredResource)(nil)
	_ resource.ResourceWithIdentity    = (*deferredResource)(nil)
)

// get returns the ccResource, translating the type on first use; false
// (with an error diagnostic) when it does not translate.
func (r *deferredResource) get(ds *diag.Diagnostics) bool {
	if r.inner != nil {
		return true
	}
	t, ok := r.d.translated(r.i, ds)
	if ok {
		r.inner = &ccResource{t: t}
	}
	return ok
}

func (r *deferredResource) IdentitySchema(ctx context.Context, req resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	var ds diag.Diagnostics
	if r.get(&ds) {
		r.inner.IdentitySchema(ctx, req, resp)
	}
}

func (r *deferredResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = r.d.slots[r.i].ref.TerraformName
}

func (r *deferredResource) Schema(ctx context.Context, req resource.SchemaRequest, resp *resource.SchemaResponse) {
	if r.get(&resp.Diagnostics) {
		r.inner.Schema(ctx, req, resp)
	}
}

func (r *deferredResource) Configure(ctx context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if r.get(&resp.Diagnostics) {
		r.inner.Configure(ctx, req, resp)
	}
}

func (r *deferredResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if r.get(&resp.Diagnostics) {
		r.inner.Create(ctx, req, resp)
	}
}

func (r *deferredResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	if r.get(&resp.Diagnostics) {
		r.inner.Read(ctx, req, resp)
	}
}

func (r *deferredResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if r.get(&resp.Diagnostics) {
		r.inner.Update(ctx, req, resp)
	}
}

func (r *deferredResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	if r.get(&resp.Diagnostics) {
		r.inner.Delete(ctx, req, resp)
	}
}

func (r *deferredResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if r.get(&resp.Diagnostics) {
		r.inner.ImportState(ctx, req, resp)
	}
}

func (r *deferredResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if r.get(&resp.Diagnostics) {
		r.inner.ModifyPlan(ctx, req, resp)
	}
}

// deferredDataSource is deferredResource's counterpart for ccDataSource.
type deferredDataSource struct {
	d      *deferredTypes
	i      int
	plural bool
	inner  *ccDataSource
}

var (
	_ datasource.DataSource              = (*deferredDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*deferredDataSource)(nil)
)

func (s *deferredDataSource) get(ds *diag.Diagnostics) bool {
	if s.inner != nil {
		return true
	}
	t, ok := s.d.translated(s.i, ds)
	if ok {
		s.inner = &ccDataSource{t: t, plural: s.plural}
	}
	return ok
}

func (s *deferredDataSource) Metadata(_ context.Context, _ datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	ref := s.d.slots[s.i].ref
	resp.TypeName = ref.TerraformName
	if s.plural {
		resp.TypeName = ref.PluralName
	}
}

func (s *deferredDataSource) Schema(ctx context.Context, req datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	if s.get(&resp.Diagnostics) {
		s.inner.Schema(ctx, req, resp)
	}
}

func (s *deferredDataSource) Configure(ctx context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	if s.get(&resp.Diagnostics) {
		s.inner.Configure(ctx, req, resp)
	}
}

func (s *deferredDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if s.get(&resp.Diagnostics) {
		s.inner.Read(ctx, req, resp)
	}
}

// deferredListResource is deferredResource's counterpart for
// ccListResource: its name and list block schema come from the name
// alone, so listing the list resources translates nothing.
type deferredListResource struct {
	d     *deferredTypes
	i     int
	inner *ccListResource
}

var (
	_ list.ListResource              = (*deferredListResource)(nil)
	_ list.ListResourceWithConfigure = (*deferredListResource)(nil)
)

func (l *deferredListResource) get(ds *diag.Diagnostics) bool {
	if l.inner != nil {
		return true
	}
	t, ok := l.d.translated(l.i, ds)
	if ok {
		l.inner = &ccListResource{t: t}
	}
	return ok
}

func (l *deferredListResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = l.d.slots[l.i].ref.TerraformName
}

func (l *deferredListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listSchema(l.d.slots[l.i].ref.TypeName)
}

func (l *deferredListResource) Configure(ctx context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if l.get(&resp.Diagnostics) {
		l.inner.Configure(ctx, req, resp)
	}
}

func (l *deferredListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var ds diag.Diagnostics
	if !l.get(&ds) {
		stream.Results = list.ListResultsStreamDiagnostics(ds)
		return
	}
	l.inner.List(ctx, req, stream)
}
