package cfnschema

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// notNull rejects a null value. It goes on properties the schema requires
// inside an optional object or collection: Terraform validates nested
// attributes only when their parent is set, so the property is required
// exactly when the value around it is configured.
type notNull struct{}

var (
	_ validator.String  = notNull{}
	_ validator.Int64   = notNull{}
	_ validator.Float64 = notNull{}
	_ validator.Bool    = notNull{}
	_ validator.List    = notNull{}
	_ validator.Set     = notNull{}
	_ validator.Map     = notNull{}
	_ validator.Object  = notNull{}
)

func (notNull) Description(context.Context) string {
	return "value must be configured when the enclosing value is configured"
}

func (v notNull) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (notNull) check(p path.Path, val attr.Value, diags interface {
	AddAttributeError(path.Path, string, string)
}) {
	if val.IsNull() {
		diags.AddAttributeError(p, "Missing required argument",
			"The argument "+p.String()+" is required when the value that contains it is set.")
	}
}

func (v notNull) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	v.check(req.Path, req.ConfigValue, &resp.Diagnostics)
}

func (v notNull) ValidateInt64(_ context.Context, req validator.Int64Request, resp *validator.Int64Response) {
	v.check(req.Path, req.ConfigValue, &resp.Diagnostics)
}

func (v notNull) ValidateFloat64(_ context.Context, req validator.Float64Request, resp *validator.Float64Response) {
	v.check(req.Path, req.ConfigValue, &resp.Diagnostics)
}

func (v notNull) ValidateBool(_ context.Context, req validator.BoolRequest, resp *validator.BoolResponse) {
	v.check(req.Path, req.ConfigValue, &resp.Diagnostics)
}

func (v notNull) ValidateList(_ context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	v.check(req.Path, req.ConfigValue, &resp.Diagnostics)
}

func (v notNull) ValidateSet(_ context.Context, req validator.SetRequest, resp *validator.SetResponse) {
	v.check(req.Path, req.ConfigValue, &resp.Diagnostics)
}

func (v notNull) ValidateMap(_ context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	v.check(req.Path, req.ConfigValue, &resp.Diagnostics)
}

func (v notNull) ValidateObject(_ context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	v.check(req.Path, req.ConfigValue, &resp.Diagnostics)
}

// IsNotNull reports whether v is the validator an attribute gets when it
// must not be null while the value that contains it is set (NotNull): a
// caller that gives the value another way to be set (awscc's write-only
// twins) replaces it.
func IsNotNull(v any) bool {
	_, ok := v.(notNull)
	return ok
}
