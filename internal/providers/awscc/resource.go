package awscc

import (
	"context"
	"fmt"

	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// ccResource is one CloudFormation type as a managed resource. Its schema
// is cfnschema's, with the validators and plan modifiers it built, so
// validation and planning are complete; the operations that would call
// Cloud Control report that they are not implemented yet.
type ccResource struct{ t *cfnschema.ResourceType }

var _ resource.Resource = (*ccResource)(nil)

func (r *ccResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = r.t.TerraformName
}

func (r *ccResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = r.t.ResourceSchema()
}

func (r *ccResource) Create(_ context.Context, _ resource.CreateRequest, resp *resource.CreateResponse) {
	notImplemented(&resp.Diagnostics, r.t, "create")
}

func (r *ccResource) Read(_ context.Context, _ resource.ReadRequest, resp *resource.ReadResponse) {
	notImplemented(&resp.Diagnostics, r.t, "read")
}

func (r *ccResource) Update(_ context.Context, _ resource.UpdateRequest, resp *resource.UpdateResponse) {
	notImplemented(&resp.Diagnostics, r.t, "update")
}

func (r *ccResource) Delete(_ context.Context, _ resource.DeleteRequest, resp *resource.DeleteResponse) {
	notImplemented(&resp.Diagnostics, r.t, "delete")
}

// ccDataSource is a type's singular data source (one object by its
// identifier) or, with plural set, its plural one (every identifier).
type ccDataSource struct {
	t      *cfnschema.ResourceType
	plural bool
}

var _ datasource.DataSource = (*ccDataSource)(nil)

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

func (d *ccDataSource) Read(_ context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	op := "read"
	if d.plural {
		op = "list"
	}
	notImplemented(&resp.Diagnostics, d.t, op)
}

// notImplemented reports an operation that needs the Cloud Control runtime.
func notImplemented(ds *diag.Diagnostics, t *cfnschema.ResourceType, op string) {
	ds.AddError("Not implemented yet", fmt.Sprintf(
		"Cairn's awscc provider cannot %s %s (%s) yet: it serves the CloudFormation schemas, so configurations validate and plan, "+
			"but the Create, Read, Update, Delete and List operations through the AWS Cloud Control API arrive in a later release. "+
			"Nothing was changed in AWS.", op, t.TerraformName, t.TypeName))
}
