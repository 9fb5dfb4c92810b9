package awscc

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// ccDataSource is a type's singular data source (one object by its
// identifier) or, with plural set, its plural one (every identifier).
type ccDataSource struct {
	t      *cfnschema.ResourceType
	plural bool
	rt     *runtime
}

var (
	_ datasource.DataSource              = (*ccDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*ccDataSource)(nil)
)

func (d *ccDataSource) Metadata(_ context.Context, _ datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	if d.plural {
		resp.TypeName = d.t.PluralName
	} else {
		resp.TypeName = d.t.TerraformName
	}
}

func (d *ccDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	if d.plural {
		resp.Schema, _ = d.t.PluralDataSourceSchema()
	} else {
		resp.Schema = d.t.DataSourceSchema()
	}
}

func (d *ccDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, _ *datasource.ConfigureResponse) {
	d.rt, _ = req.ProviderData.(*runtime)
}

func (d *ccDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if d.rt == nil {
		resp.Diagnostics.AddError("Provider not configured", "The awscc provider was not configured before "+d.t.TerraformName+" was read. This is a bug in the engine.")
		return
	}
	ctx, done := d.rt.operationContext(ctx, "read", defaultOperationTimeout)
	defer done()
	if d.plural {
		d.list(ctx, req, resp)
		return
	}
	var id string
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("id"), &id)...)
	if resp.Diagnostics.HasError() {
		return
	}
	model, err := d.rt.getModel(ctx, d.t.TypeName, id)
	if err != nil {
		resp.Diagnostics.AddError("Cannot read "+d.t.TypeName, fmt.Sprintf("%q: %s", id, d.rt.callError(ctx, err)))
		return
	}
	ty := resp.State.Schema.Type().TerraformType(ctx).(tftypes.Object)
	v, err := stateFromJSON(d.t.Attributes, ty, model, tftypes.NewValue(ty, nil))
	if err != nil {
		resp.Diagnostics.AddError("Cannot read "+d.t.TypeName, "reading the resource model: "+err.Error())
		return
	}
	resp.State.Raw = setAttr(v, "id", tftypes.NewValue(tftypes.String, id))
}

// list reads every identifier of the type, page by page.
func (d *ccDataSource) list(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	var ids []tftypes.Value
	// A resource listed on two pages (it changed between calls) is one
	// set element.
	seen := map[string]bool{}
	in := &cloudcontrol.ListResourcesInput{TypeName: &d.t.TypeName, RoleArn: d.rt.role()}
	for {
		out, err := d.rt.api.ListResources(ctx, in)
		if err != nil {
			resp.Diagnostics.AddError("Cannot list "+d.t.TypeName, d.rt.callError(ctx, err))
			return
		}
		for _, rd := range out.ResourceDescriptions {
			if id := aws.ToString(rd.Identifier); !seen[id] {
				seen[id] = true
				ids = append(ids, tftypes.NewValue(tftypes.String, id))
			}
		}
		if aws.ToString(out.NextToken) == "" {
			break
		}
		in.NextToken = out.NextToken
	}
	ty := resp.State.Schema.Type().TerraformType(ctx).(tftypes.Object)
	resp.State.Raw = tftypes.NewValue(ty, map[string]tftypes.Value{
		"id":  tftypes.NewValue(tftypes.String, d.rt.region),
		"ids": tftypes.NewValue(ty.AttributeTypes["ids"], ids),
	})
}
