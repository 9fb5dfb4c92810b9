package cairntest

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"
	lschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// thingList is the list resource cairntest_thing (protocol 6.10 and
// 5.10). Things live nowhere but in state, so the list block says which
// exist: names. Each is found with its identity, display name "thing
// NAME" and, when asked for, the object an import of it reads.
type thingList struct{}

var _ list.ListResource = thingList{}

func (thingList) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = "cairntest_thing"
}

func (thingList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = lschema.Schema{Attributes: map[string]lschema.Attribute{
		"names": lschema.ListAttribute{ElementType: types.StringType, Required: true},
	}}
}

func (thingList) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var names []string
	if ds := req.Config.GetAttribute(ctx, path.Root("names"), &names); ds.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(ds)
		return
	}
	stream.Results = func(push func(list.ListResult) bool) {
		for _, name := range names {
			r := req.NewListResult(ctx)
			r.DisplayName = "thing " + name
			r.Diagnostics.Append(setIdentity(ctx, name, r.Identity)...)
			if req.IncludeResource {
				r.Diagnostics.Append(r.Resource.SetAttribute(ctx, path.Root("name"), name)...)
				r.Diagnostics.Append(r.Resource.SetAttribute(ctx, path.Root("id"), "thing-"+name)...)
			}
			if !push(r) {
				return
			}
		}
	}
}
