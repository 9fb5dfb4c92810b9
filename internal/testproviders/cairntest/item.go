package cairntest

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// item is cairntest_item: an object named by an identity (protocol 6.9)
// that its list resource (protocol 6.10) makes up on demand, so tests of
// cairn query see a real plugin's ListResource stream and
// GenerateResourceConfig. Its list block requires a prefix, as the list
// resources of many providers require a parent (so cairn query -all must
// skip it), and lists number items named PREFIX-0, PREFIX-1, ... Each
// object's note is "", which the framework's GenerateResourceConfig
// writes as null (an empty optional string, after the SDKv2), so a test
// tells the provider's generated configuration from Cairn's own.
type item struct{}

var (
	_ resource.ResourceWithIdentity    = item{}
	_ resource.ResourceWithImportState = item{}
	_ list.ListResource                = itemList{}
)

func (item) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = "cairntest_item"
}

func (item) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = itemSchema()
}

func itemSchema() rschema.Schema {
	return rschema.Schema{Attributes: map[string]rschema.Attribute{
		"id":   rschema.StringAttribute{Computed: true},
		"name": rschema.StringAttribute{Required: true},
		"note": rschema.StringAttribute{Optional: true},
	}}
}

func (item) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"name": identityschema.StringAttribute{RequiredForImport: true},
	}}
}

func (item) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var name types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("name"), &name)...)
	resp.State.Raw = req.Plan.Raw.Copy()
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), "item-"+name.ValueString())...)
	resp.Diagnostics.Append(resp.Identity.SetAttribute(ctx, path.Root("name"), name)...)
}

// Read fills in what an import by identity leaves unknown.
func (item) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var name types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("name"), &name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), "item-"+name.ValueString())...)
	resp.Diagnostics.Append(resp.Identity.SetAttribute(ctx, path.Root("name"), name)...)
}

func (item) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = req.Plan.Raw.Copy()
}

func (item) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

func (item) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughWithIdentity(ctx, path.Root("name"), path.Root("name"), req, resp)
}

// itemList is the list resource of cairntest_item.
type itemList struct{}

func (itemList) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = "cairntest_item"
}

func (itemList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{Attributes: map[string]listschema.Attribute{
		"prefix": listschema.StringAttribute{Required: true},
		"number": listschema.Int64Attribute{Optional: true},
	}}
}

// List yields number items (3 when not set), up to the limit.
func (itemList) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var prefix types.String
	var count types.Int64
	req.Config.GetAttribute(ctx, path.Root("prefix"), &prefix)
	req.Config.GetAttribute(ctx, path.Root("number"), &count)
	n := int64(3)
	if !count.IsNull() {
		n = count.ValueInt64()
	}
	stream.Results = func(yield func(list.ListResult) bool) {
		for i := int64(0); i < n && (req.Limit <= 0 || i < req.Limit); i++ {
			name := fmt.Sprintf("%s-%d", prefix.ValueString(), i)
			res := req.NewListResult(ctx)
			res.DisplayName = "Item " + name
			res.Diagnostics.Append(res.Identity.SetAttribute(ctx, path.Root("name"), name)...)
			if req.IncludeResource {
				res.Diagnostics.Append(res.Resource.SetAttribute(ctx, path.Root("id"), "item-"+name)...)
				res.Diagnostics.Append(res.Resource.SetAttribute(ctx, path.Root("name"), name)...)
				res.Diagnostics.Append(res.Resource.SetAttribute(ctx, path.Root("note"), "")...)
			}
			if !yield(res) {
				return
			}
		}
	}
}
