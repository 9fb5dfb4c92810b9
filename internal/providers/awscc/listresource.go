package awscc

import (
	"context"
	"fmt"
	"iter"

	"github.com/aws/aws-sdk-go-v2/aws"
	cctypes "github.com/aws/aws-sdk-go-v2/service/cloudcontrol/types"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/cairn-iac/cairn/cfnschema"
)

// ccListResource lists the objects of one CloudFormation type whose
// schema has a list handler (plugin protocol 6.10, Terraform 1.14's
// "terraform query"): every object's identity, its Cloud Control
// identifier as display name and, when asked, the object as a resource
// would hold it after import and refresh.
//
// Listing costs one ListResources call per page of up to 100 objects:
// pages carry every object's properties, so the resource objects come
// from them. Only a type whose pages lack properties GetResource returns
// (checked once per listing on an object of its first page) has each
// object read with GetResource; identities and display names never need
// it.
type ccListResource struct {
	t  *cfnschema.ResourceType
	rt *runtime
}

var (
	_ list.ListResource              = (*ccListResource)(nil)
	_ list.ListResourceWithConfigure = (*ccListResource)(nil)
)

// listable reports whether a type's schema has a list handler.
func listable(t *cfnschema.ResourceType) bool {
	_, ok := t.Handlers["list"]
	return ok
}

func (l *ccListResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = l.t.TerraformName
}

// ListResourceConfigSchema is the list block's schema: no arguments, as
// HashiCorp's awscc has it.
func (l *ccListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listSchema(l.t.TypeName)
}

func listSchema(typeName string) listschema.Schema {
	return listschema.Schema{
		MarkdownDescription: "List all resources for `" + typeName + "` resource type.",
		Attributes:          map[string]listschema.Attribute{},
	}
}

func (l *ccListResource) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	l.rt, _ = req.ProviderData.(*runtime)
}

// List streams the type's objects, page by page, stopping when the
// consumer stops, at req.Limit results (when positive), or at the first
// error (a last result carrying it).
func (l *ccListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	if l.rt == nil {
		var ds diag.Diagnostics
		ds.AddError("Provider not configured", "The awscc provider was not configured before "+l.t.TerraformName+" was listed. This is a bug in the engine.")
		stream.Results = list.ListResultsStreamDiagnostics(ds)
		return
	}
	stream.Results = func(yield func(list.ListResult) bool) {
		ctx, done := l.rt.operationContext(ctx, "read", defaultOperationTimeout)
		defer done()
		var sent int64
		sh := identityShapeOf(l.t)
		for obj, err := range l.objects(ctx, req.IncludeResource) {
			if err != nil {
				var ds diag.Diagnostics
				ds.AddError("Cannot list "+l.t.TypeName, l.rt.callError(ctx, err))
				yield(list.ListResult{Diagnostics: ds})
				return
			}
			if !yield(l.result(ctx, req, sh, obj)) {
				return
			}
			if sent++; req.Limit > 0 && sent >= req.Limit {
				return
			}
		}
	}
}

// listedObject is one object of a listing: its identifier and, when
// resource objects were asked for, its properties.
type listedObject struct {
	id    string
	props *string
}

// objects walks the type's pages. With properties wanted, the first page
// holding an object decides whether pages can supply them (probe); if
// not, each object is read with GetResource. An object listed on two
// pages (it changed between calls) is sent once.
func (l *ccListResource) objects(ctx context.Context, withProps bool) iter.Seq2[listedObject, error] {
	return func(yield func(listedObject, error) bool) {
		seen := map[string]bool{}
		usable, probed := true, !withProps
		var token *string
		for {
			out, err := l.rt.listPage(ctx, l.t.TypeName, token)
			if err != nil {
				yield(listedObject{}, err)
				return
			}
			if !probed && len(out.ResourceDescriptions) > 0 {
				usable, probed = l.probe(ctx, out.ResourceDescriptions[0]), true
			}
			for _, rd := range out.ResourceDescriptions {
				id := aws.ToString(rd.Identifier)
				if seen[id] {
					continue
				}
				seen[id] = true
				obj := listedObject{id: id}
				if withProps {
					if obj.props, err = l.properties(ctx, rd, usable); err != nil {
						if isNotFound(err) {
							continue // deleted since it was listed
						}
						yield(listedObject{}, err)
						return
					}
				}
				if !yield(obj, nil) {
					return
				}
			}
			if aws.ToString(out.NextToken) == "" {
				return
			}
			token = out.NextToken
		}
	}
}

// probe reports whether a page's description of rd holds every property
// GetResource returns for it. A read that fails teaches nothing: the
// pages are trusted, as the list cache trusts them.
func (l *ccListResource) probe(ctx context.Context, rd cctypes.ResourceDescription) bool {
	if rd.Properties == nil {
		return false
	}
	read, err := l.rt.getProperties(ctx, l.t.TypeName, aws.ToString(rd.Identifier))
	if err != nil || read == nil {
		return true
	}
	listed, err1 := decodeModel(rd.Properties)
	got, err2 := decodeModel(read)
	return err1 == nil && err2 == nil && holdsEvery(listed, got)
}

// properties are an object's properties: the page's when usable, else
// GetResource's.
func (l *ccListResource) properties(ctx context.Context, rd cctypes.ResourceDescription, usable bool) (*string, error) {
	if usable && rd.Properties != nil {
		return rd.Properties, nil
	}
	return l.rt.getProperties(ctx, l.t.TypeName, aws.ToString(rd.Identifier))
}

// result is the list result of one object.
func (l *ccListResource) result(ctx context.Context, req list.ListRequest, sh identityShape, obj listedObject) list.ListResult {
	res := req.NewListResult(ctx)
	res.DisplayName = obj.id
	res.Identity.Raw = l.rt.identityOf(ctx, l.t, sh, obj.id, tftypes.Value{})
	if !req.IncludeResource {
		return res
	}
	v, err := l.resourceObject(ctx, req, obj)
	if err != nil {
		res.Diagnostics.AddError("Cannot read "+l.t.TypeName, fmt.Sprintf("%q: reading the resource model: %s", obj.id, err))
		return res
	}
	res.Resource.Raw = v
	return res
}

// resourceObject is the object as a resource's state holds it after an
// import and a refresh: its properties, its identifier in id, and the
// tags split from tags_all as they would be with no tags configured.
func (l *ccListResource) resourceObject(ctx context.Context, req list.ListRequest, obj listedObject) (tftypes.Value, error) {
	model, err := decodeModel(obj.props)
	if err != nil {
		return tftypes.Value{}, err
	}
	ty := req.ResourceSchema.Type().TerraformType(ctx).(tftypes.Object)
	v, err := stateFromJSON(l.t.Attributes, ty, model, tftypes.NewValue(ty, nil))
	if err != nil {
		return tftypes.Value{}, err
	}
	v = setAttr(v, "id", tftypes.NewValue(tftypes.String, obj.id))
	r := &ccResource{t: l.t, rt: l.rt}
	return r.splitTags(v, tftypes.NewValue(ty, nil)), nil
}

// ListResources implements provider.ProviderWithListResources: one list
// resource per servable type whose schema has a list handler.
func (p *Provider) ListResources(context.Context) []func() list.ListResource {
	if p.deferred != nil {
		return p.deferred.listResources()
	}
	var out []func() list.ListResource
	for _, t := range p.catalog.Types() {
		if listable(t) {
			out = append(out, func() list.ListResource { return &ccListResource{t: t} })
		}
	}
	return out
}
