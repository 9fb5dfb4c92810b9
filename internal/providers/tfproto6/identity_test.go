package tfproto6

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/list"
	lschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	pschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/providers"
)

// The identity provider is a small terraform-plugin-framework provider
// with one resource type whose identity is at version 1 (version 0 had
// the name under "id"), and a list resource for it that lists "how_many"
// things, counting how many it produced.

type idProvider struct{ produced *atomic.Int64 }

func (p *idProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "idtest"
}
func (p *idProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = pschema.Schema{}
}
func (p *idProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}
func (p *idProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return &idThing{} }}
}
func (p *idProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }
func (p *idProvider) ListResources(context.Context) []func() list.ListResource {
	return []func() list.ListResource{func() list.ListResource { return &idThing{produced: p.produced} }}
}

type idThing struct{ produced *atomic.Int64 }

var (
	_ resource.ResourceWithIdentity        = (*idThing)(nil)
	_ resource.ResourceWithUpgradeIdentity = (*idThing)(nil)
	_ resource.ResourceWithImportState     = (*idThing)(nil)
	_ list.ListResourceWithValidateConfig  = (*idThing)(nil)
)

func (r *idThing) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = "idtest_thing"
}
func (r *idThing) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = rschema.Schema{Attributes: map[string]rschema.Attribute{
		"id": rschema.StringAttribute{Computed: true}, "name": rschema.StringAttribute{Required: true},
	}}
}
func (r *idThing) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{Version: 1, Attributes: map[string]identityschema.Attribute{
		"name": identityschema.StringAttribute{RequiredForImport: true, Description: "The thing's name."},
		"zone": identityschema.StringAttribute{OptionalForImport: true},
	}}
}
func (r *idThing) UpgradeIdentity(context.Context) map[int64]resource.IdentityUpgrader {
	return map[int64]resource.IdentityUpgrader{0: {
		PriorSchema: &identityschema.Schema{Attributes: map[string]identityschema.Attribute{"id": identityschema.StringAttribute{RequiredForImport: true}}},
		IdentityUpgrader: func(ctx context.Context, req resource.UpgradeIdentityRequest, resp *resource.UpgradeIdentityResponse) {
			var id types.String
			resp.Diagnostics.Append(req.Identity.GetAttribute(ctx, path.Root("id"), &id)...)
			resp.Diagnostics.Append(resp.Identity.Set(ctx, thingID{Name: id, Zone: types.StringValue("z1")})...)
		},
	}}
}
func (r *idThing) Create(context.Context, resource.CreateRequest, *resource.CreateResponse) {}
func (r *idThing) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var name types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("name"), &name)...)
	resp.Diagnostics.Append(resp.Identity.SetAttribute(ctx, path.Root("name"), name)...)
	resp.Diagnostics.Append(resp.Identity.SetAttribute(ctx, path.Root("zone"), "z1")...)
}
func (r *idThing) Update(context.Context, resource.UpdateRequest, *resource.UpdateResponse) {}
func (r *idThing) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}
func (r *idThing) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	var name types.String
	resp.Diagnostics.Append(req.Identity.GetAttribute(ctx, path.Root("name"), &name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), name)...)
}

func (r *idThing) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = lschema.Schema{Attributes: map[string]lschema.Attribute{"how_many": lschema.Int64Attribute{Optional: true}}}
}
func (r *idThing) ValidateListResourceConfig(ctx context.Context, req list.ValidateConfigRequest, resp *list.ValidateConfigResponse) {
	var n types.Int64
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("how_many"), &n)...)
	if n.ValueInt64() < 0 {
		resp.Diagnostics.AddAttributeError(path.Root("how_many"), "Negative how_many", "how_many must not be negative.")
	}
}
func (r *idThing) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var n types.Int64
	req.Config.GetAttribute(ctx, path.Root("how_many"), &n)
	stream.Results = func(yield func(list.ListResult) bool) {
		for i := range n.ValueInt64() {
			if n.ValueInt64() == 99 && i == 1 {
				panic("listing broke")
			}
			r.produced.Add(1)
			res := req.NewListResult(ctx)
			name := fmt.Sprintf("t%d", i)
			res.DisplayName = "thing " + name
			res.Diagnostics.Append(res.Identity.SetAttribute(ctx, path.Root("name"), name)...)
			if req.IncludeResource {
				res.Diagnostics.Append(res.Resource.SetAttribute(ctx, path.Root("id"), name)...)
				res.Diagnostics.Append(res.Resource.SetAttribute(ctx, path.Root("name"), name)...)
			}
			if !yield(res) {
				return
			}
		}
	}
}

// thingID is a thing's identity as a model.
type thingID struct {
	Name types.String `tfsdk:"name"`
	Zone types.String `tfsdk:"zone"`
}

func thingIdentity(name, zone cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"name": name, "zone": zone})
}

// TestIdentityOperations maps the identity RPCs both ways: the schema,
// an upgrade from version 0, an import by identity alone and the identity
// a read returns.
func TestIdentityOperations(t *testing.T) {
	p := New(providerserver.NewProtocol6(&idProvider{produced: &atomic.Int64{}})())
	ip := p.(providers.IdentityProvider)
	ctx := context.Background()
	s := ip.GetResourceIdentitySchemas(ctx)
	want := providers.IdentitySchema{Version: 1, Attributes: []providers.IdentityAttribute{
		{Name: "name", Type: cty.String, Description: "The thing's name.", RequiredForImport: true},
		{Name: "zone", Type: cty.String, OptionalForImport: true},
	}}
	if diff := cmp.Diff(want, s.IdentityTypes["idtest_thing"], cmp.Comparer(func(a, b cty.Type) bool { return a.Equals(b) })); diff != "" || s.Diagnostics.HasErrors() {
		t.Errorf("identity schema %v (-want +got):\n%s", s.Diagnostics, diff)
	}
	up := ip.UpgradeResourceIdentity(ctx, providers.UpgradeResourceIdentityRequest{TypeName: "idtest_thing", Version: 0, RawJSON: []byte(`{"id":"a"}`)})
	if !up.UpgradedIdentity.RawEquals(thingIdentity(cty.StringVal("a"), cty.StringVal("z1"))) || up.Diagnostics.HasErrors() {
		t.Errorf("upgraded identity %#v %v", up.UpgradedIdentity, up.Diagnostics)
	}
	imp := p.ImportResourceState(ctx, providers.ImportResourceStateRequest{TypeName: "idtest_thing", Identity: thingIdentity(cty.StringVal("b"), cty.NullVal(cty.String))})
	if imp.Diagnostics.HasErrors() || len(imp.ImportedResources) != 1 || !imp.ImportedResources[0].State.GetAttr("id").RawEquals(cty.StringVal("b")) {
		t.Fatalf("import by identity: %#v %v", imp.ImportedResources, imp.Diagnostics)
	}
	obj := imp.ImportedResources[0]
	read := p.ReadResource(ctx, providers.ReadResourceRequest{TypeName: "idtest_thing", PriorState: obj.State, Private: obj.Private,
		CurrentIdentity: obj.Identity, ProviderMeta: cty.NullVal(cty.EmptyObject)})
	if !read.NewIdentity.RawEquals(thingIdentity(cty.StringVal("b"), cty.StringVal("z1"))) || read.Diagnostics.HasErrors() {
		t.Errorf("identity after read %#v %v", read.NewIdentity, read.Diagnostics)
	}
}

// TestListResource maps the list resource RPCs: the list block schema,
// validation, and the stream as the caller ranges over it, with and
// without resource objects, stopping the provider when the caller stops,
// and a provider's panic mid-listing reported as a last result.
func TestListResource(t *testing.T) {
	produced := &atomic.Int64{}
	p := New(providerserver.NewProtocol6(&idProvider{produced: produced})())
	lp := p.(providers.ListResourceProvider)
	ctx := context.Background()
	ls := lp.GetListResourceSchemas(ctx)
	if b := ls.ListResourceTypes["idtest_thing"].Block; b == nil || b.Attributes["how_many"] == nil {
		t.Fatalf("list block schema: %#v %v", ls, ls.Diagnostics)
	}
	config := func(n int64) cty.Value { return cty.ObjectVal(map[string]cty.Value{"how_many": cty.NumberIntVal(n)}) }
	if v := lp.ValidateListResourceConfig(ctx, providers.ValidateListResourceConfigRequest{TypeName: "idtest_thing", Config: config(-1)}); len(v.Diagnostics) != 1 || v.Diagnostics[0].Summary != "Negative how_many" {
		t.Errorf("validation: %v", v.Diagnostics)
	}
	cases := map[string]struct {
		reason   string
		include  bool
		stopAt   int
		want     int
		produced int64
	}{
		"identities": {reason: "Every result, no objects.", want: 5, produced: 5},
		"objects":    {reason: "Objects when asked.", include: true, want: 5, produced: 5},
		"stopped":    {reason: "A caller that stops after 2 stops the provider.", stopAt: 2, want: 2, produced: 2},
	}
	t.Run("panic", func(t *testing.T) {
		resp := lp.ListResource(ctx, providers.ListResourceRequest{TypeName: "idtest_thing", Config: config(99)})
		var got []providers.ListResult
		for r := range resp.Results {
			got = append(got, r)
		}
		if len(got) != 2 || got[0].Diagnostics.HasErrors() || !got[1].Diagnostics.HasErrors() {
			t.Fatalf("a provider that panics mid-listing: %d results %v, want one and an error", len(got), got)
		}
	})
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			produced.Store(0)
			resp := lp.ListResource(ctx, providers.ListResourceRequest{TypeName: "idtest_thing", Config: config(5), IncludeResourceObject: tc.include})
			if resp.Diagnostics.HasErrors() {
				t.Fatal(resp.Diagnostics)
			}
			var got []providers.ListResult
			for r := range resp.Results {
				got = append(got, r)
				if len(got) == tc.stopAt {
					break
				}
			}
			if len(got) != tc.want || produced.Load() != tc.produced {
				t.Fatalf("%s\n%d results, %d produced; want %d, %d", tc.reason, len(got), produced.Load(), tc.want, tc.produced)
			}
			r := got[1]
			if r.DisplayName != "thing t1" || !r.Identity.RawEquals(thingIdentity(cty.StringVal("t1"), cty.NullVal(cty.String))) || r.Diagnostics.HasErrors() {
				t.Errorf("%s\nresult 1: %q %#v %v", tc.reason, r.DisplayName, r.Identity, r.Diagnostics)
			}
			if tc.include != (r.ResourceObject != cty.NilVal) {
				t.Errorf("%s\nresource object %#v", tc.reason, r.ResourceObject)
			}
		})
	}
}
