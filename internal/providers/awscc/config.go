package awscc

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// configSchema is the provider block. It accepts every argument HashiCorp's
// awscc provider accepts, so existing configurations validate, plus
// schemas, Cairn's own: the directory of CloudFormation schemas to serve.
// Only region is read today; the credential and endpoint arguments are for
// the Cloud Control runtime that comes later.
func configSchema() schema.Schema {
	str := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Optional: true, Description: desc}
	}
	secret := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Optional: true, Sensitive: true, Description: desc}
	}
	strList := func(desc string) schema.ListAttribute {
		return schema.ListAttribute{ElementType: types.StringType, Optional: true, Description: desc}
	}
	roleAttrs := func() map[string]schema.Attribute {
		return map[string]schema.Attribute{
			"role_arn":     schema.StringAttribute{Required: true, Description: "ARN of the IAM role to assume."},
			"session_name": str("Name of the assumed role's session."),
			"duration":     str("How long the role session lasts, as a Go duration (15m to 12h)."),
			"policy":       str("IAM policy document (JSON) further limiting the session's permissions."),
			"policy_arns":  strList("ARNs of managed IAM policies further limiting the session's permissions."),
		}
	}
	assumeRole := roleAttrs()
	assumeRole["external_id"] = str("External identifier passed when assuming the role.")
	assumeRole["tags"] = schema.MapAttribute{ElementType: types.StringType, Optional: true, Description: "Session tags."}
	assumeRole["transitive_tag_keys"] = schema.SetAttribute{ElementType: types.StringType, Optional: true, Description: "Session tag keys passed on to later sessions."}
	webIdentity := roleAttrs()
	webIdentity["web_identity_token"] = secret("OIDC or OAuth web identity token.")
	webIdentity["web_identity_token_file"] = str("File holding the web identity token.")

	return schema.Schema{
		Description: "Cairn's built-in AWS Cloud Control provider: CloudFormation registry schemas served as resources and data sources.",
		Attributes: map[string]schema.Attribute{
			"schemas": str("Directory of CloudFormation resource schemas (*.json) to serve. A relative path is relative to the module directory. " +
				"Cairn reads it before evaluating the configuration, so it must be a literal string; the CAIRN_AWSCC_SCHEMAS environment variable is used when it is not set."),
			"region":                   str("AWS region of the Cloud Control API calls; AWS_REGION or the shared configuration when not set."),
			"profile":                  str("Named profile of the shared configuration and credentials files."),
			"access_key":               str("AWS access key ID."),
			"secret_key":               secret("AWS secret access key."),
			"token":                    secret("Session token of temporary credentials."),
			"role_arn":                 str("ARN of the IAM role Cloud Control uses on your behalf to perform operations."),
			"shared_config_files":      strList("Shared configuration files; ~/.aws/config when not set."),
			"shared_credentials_files": strList("Shared credentials files; ~/.aws/credentials when not set."),
			"http_proxy":               str("Proxy URL for HTTP requests."),
			"https_proxy":              str("Proxy URL for HTTPS requests."),
			"no_proxy":                 str("Comma-separated hosts that bypass the proxies."),
			"insecure":                 schema.BoolAttribute{Optional: true, Description: "Skip TLS certificate verification."},
			"max_retries":              schema.Int64Attribute{Optional: true, Description: "Maximum retries of a failed AWS API request (25 when not set)."},
			"skip_metadata_api_check":  schema.BoolAttribute{Optional: true, Description: "Do not use the EC2 instance metadata service for credentials or region."},
			"skip_medatadata_api_check": schema.BoolAttribute{Optional: true, DeprecationMessage: "Use skip_metadata_api_check.",
				Description: "Misspelt former name of skip_metadata_api_check."},
			"assume_role": schema.SingleNestedAttribute{Optional: true, Attributes: assumeRole,
				Description: "Role to assume before making API calls."},
			"assume_role_with_web_identity": schema.SingleNestedAttribute{Optional: true, Attributes: webIdentity,
				Description: "Role to assume with a web identity token before making API calls."},
			"endpoints": schema.SingleNestedAttribute{Optional: true, Description: "Service endpoint URLs replacing the defaults.",
				Attributes: map[string]schema.Attribute{
					"cloudcontrolapi": str("Cloud Control API endpoint URL."),
					"iam":             str("IAM endpoint URL."),
					"sso":             str("IAM Identity Center (SSO) endpoint URL."),
					"sts":             str("STS endpoint URL."),
				}},
			"user_agent": schema.ListNestedAttribute{Optional: true, Description: "Products to add to the User-Agent of every AWS API call.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"product_name":    schema.StringAttribute{Required: true, Description: "Product name."},
					"product_version": str("Product version."),
					"comment":         str("Comment."),
				}}},
		},
	}
}

// Config is what a configured provider hands its resources and data
// sources. The Cloud Control runtime will add its client here.
type Config struct {
	// Region is the configured region, empty when not set.
	Region string
}

// Configure implements provider.Provider.
func (p *Provider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var region types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("region"), &region)...)
	if resp.Diagnostics.HasError() {
		return
	}
	c := &Config{Region: region.ValueString()}
	resp.ResourceData = c
	resp.DataSourceData = c
}
