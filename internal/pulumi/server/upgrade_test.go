package server

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/tfproto6"
)

// TestStoredObjectUpgraded: a Pulumi stack created with a provider whose
// resource schema is at version 0 keeps working after a provider at
// version 1 (which renamed name to title) is installed. Every operation on
// a stored object hands it to UpgradeResourceState first, with the version
// it was stored at, as Terraform does with state; before, the old outputs
// were decoded with the new schema and refused.
func TestStoredObjectUpgraded(t *testing.T) {
	ctx := context.Background()
	store := &thingStore{objects: map[string]string{}}
	v0 := versionedServer(t, store, 0)
	created, err := v0.Create(ctx, &pulumirpc.CreateRequest{Urn: versioned, Properties: props(t, map[string]any{"name": "a"})})
	if err != nil {
		t.Fatal(err)
	}
	if m := read(t, created.Properties)[metaKey].StringValue(); m != `{"schema_version":0}` {
		t.Fatalf("stored meta %s", m)
	}
	v1 := versionedServer(t, store, 1)

	got, err := v1.Read(ctx, &pulumirpc.ReadRequest{Urn: versioned, Id: created.Id, Properties: created.Properties, Inputs: props(t, map[string]any{"name": "a"})})
	if err != nil {
		t.Fatalf("refresh of an object stored at version 0: %v", err)
	}
	out := read(t, got.Properties)
	if out["title"].StringValue() != "a" || out.HasValue("name") || out[metaKey].StringValue() != `{"schema_version":1}` {
		t.Fatalf("refreshed outputs %v, want title a at version 1", out)
	}
	d, err := v1.Diff(ctx, &pulumirpc.DiffRequest{Urn: versioned, Id: created.Id, Olds: created.Properties, News: props(t, map[string]any{"title": "a"})})
	if err != nil {
		t.Fatal(err)
	}
	if d.Changes != pulumirpc.DiffResponse_DIFF_NONE {
		t.Fatalf("diff of the upgraded object against the same title: %v", d)
	}
	upd, err := v1.Update(ctx, &pulumirpc.UpdateRequest{Urn: versioned, Id: created.Id, Olds: created.Properties, News: props(t, map[string]any{"title": "b"})})
	if err != nil {
		t.Fatal(err)
	}
	if read(t, upd.Properties)["title"].StringValue() != "b" || store.get(created.Id) != "b" {
		t.Fatalf("update: %v, store %q", upd.Properties, store.get(created.Id))
	}
	if _, err := v1.Delete(ctx, &pulumirpc.DeleteRequest{Urn: versioned, Id: created.Id, Properties: created.Properties}); err != nil {
		t.Fatal(err)
	}
	if store.get(created.Id) != "" {
		t.Fatal("the object stored at version 0 was not deleted")
	}
}

const versioned = "urn:pulumi:dev::p::ver:index/thing:Thing::t"

// versionedServer serves ver_thing at schema version v: 0 has a name, 1
// renamed it to title and upgrades objects from 0.
func versionedServer(t *testing.T, store *thingStore, v int64) *Server {
	factory := func() (providers.Interface, error) {
		return tfproto6.New(providerserver.NewProtocol6(&verProvider{store: store, version: v})()), nil
	}
	return newServer(t, "ver", &Provider{Addr: addrs.NewDefaultProvider("ver"), Factory: factory}, nil)
}

type thingStore struct {
	mu      sync.Mutex
	next    int
	objects map[string]string
}

func (s *thingStore) get(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.objects[id]
}

func (s *thingStore) put(id, v string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id == "" {
		s.next++
		id = fmt.Sprintf("thing-%d", s.next)
	}
	if v == "" {
		delete(s.objects, id)
	} else {
		s.objects[id] = v
	}
	return id
}

type verProvider struct {
	store   *thingStore
	version int64
}

func (p *verProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "ver"
}
func (p *verProvider) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}
func (p *verProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}
func (p *verProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }
func (p *verProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return &verThing{p: p} }}
}

type verThing struct{ p *verProvider }

var _ resource.ResourceWithUpgradeState = (*verThing)(nil)

// field is the attribute holding the thing's value at this version.
func (r *verThing) field() string {
	if r.p.version == 0 {
		return "name"
	}
	return "title"
}

func (r *verThing) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = "ver_thing"
}

func (r *verThing) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = rschema.Schema{Version: r.p.version, Attributes: map[string]rschema.Attribute{
		"id":      rschema.StringAttribute{Computed: true},
		r.field(): rschema.StringAttribute{Required: true},
	}}
}

func (r *verThing) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	if r.p.version == 0 {
		return nil
	}
	prior := rschema.Schema{Attributes: map[string]rschema.Attribute{
		"id": rschema.StringAttribute{Computed: true}, "name": rschema.StringAttribute{Required: true},
	}}
	return map[int64]resource.StateUpgrader{0: {PriorSchema: &prior, StateUpgrader: func(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
		var id, name types.String
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, pathOf("id"), &id)...)
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, pathOf("name"), &name)...)
		resp.Diagnostics.Append(resp.State.Set(ctx, struct {
			ID    types.String `tfsdk:"id"`
			Title types.String `tfsdk:"title"`
		}{id, name})...)
	}}}
}

func (r *verThing) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var v types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, pathOf(r.field()), &v)...)
	id := r.p.store.put("", v.ValueString())
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, pathOf("id"), id)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, pathOf(r.field()), v)...)
}

func (r *verThing) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var id types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, pathOf("id"), &id)...)
	v := r.p.store.get(id.ValueString())
	if v == "" {
		resp.State.RemoveResource(ctx)
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, pathOf(r.field()), v)...)
}

func (r *verThing) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var id, v types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, pathOf("id"), &id)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, pathOf(r.field()), &v)...)
	r.p.store.put(id.ValueString(), v.ValueString())
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, pathOf("id"), id)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, pathOf(r.field()), v)...)
}

func (r *verThing) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var id, v types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, pathOf("id"), &id)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, pathOf(r.field()), &v)...)
	if v.ValueString() == "" {
		resp.Diagnostics.AddError("Not upgraded", "Delete was handed an object without its "+r.field())
		return
	}
	r.p.store.put(id.ValueString(), "")
}

func pathOf(name string) path.Path { return path.Root(name) }
