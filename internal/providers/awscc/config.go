package awscc

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// configSchema is the provider block. It accepts every argument HashiCorp's
// awscc provider accepts, so existing configurations validate, plus
// schemas, Cairn's own: the directory of CloudFormation schemas to serve.
// default_tags is a block, as in the AWS provider.
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
					"iam":             str("IAM endpoint URL. Accepted for compatibility with awscc; not used (Cairn makes no IAM calls)."),
					"sso":             str("IAM Identity Center (SSO) endpoint URL. Accepted for compatibility with awscc; not used."),
					"sts":             str("STS endpoint URL."),
				}},
			"user_agent": schema.ListNestedAttribute{Optional: true, Description: "Products to add to the User-Agent of every AWS API call.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"product_name":    schema.StringAttribute{Required: true, Description: "Product name."},
					"product_version": str("Product version."),
					"comment":         str("Comment (not sent: the SDK's User-Agent has no place for it)."),
				}}},
		},
		Blocks: map[string]schema.Block{
			"default_tags": schema.SingleNestedBlock{
				Description: "Tags added to every resource whose type is taggable; tags a resource sets itself win.",
				Attributes: map[string]schema.Attribute{
					"tags": schema.MapAttribute{ElementType: types.StringType, Optional: true, Description: "Default tags."},
				},
			},
		},
	}
}

// providerModel is the provider block as the framework decodes it.
type providerModel struct {
	Schemas                   types.String `tfsdk:"schemas"`
	Region                    types.String `tfsdk:"region"`
	Profile                   types.String `tfsdk:"profile"`
	AccessKey                 types.String `tfsdk:"access_key"`
	SecretKey                 types.String `tfsdk:"secret_key"`
	Token                     types.String `tfsdk:"token"`
	RoleARN                   types.String `tfsdk:"role_arn"`
	SharedConfigFiles         types.List   `tfsdk:"shared_config_files"`
	SharedCredentialsFiles    types.List   `tfsdk:"shared_credentials_files"`
	HTTPProxy                 types.String `tfsdk:"http_proxy"`
	HTTPSProxy                types.String `tfsdk:"https_proxy"`
	NoProxy                   types.String `tfsdk:"no_proxy"`
	Insecure                  types.Bool   `tfsdk:"insecure"`
	MaxRetries                types.Int64  `tfsdk:"max_retries"`
	SkipMetadataAPICheck      types.Bool   `tfsdk:"skip_metadata_api_check"`
	SkipMedatadataAPICheck    types.Bool   `tfsdk:"skip_medatadata_api_check"`
	AssumeRole                types.Object `tfsdk:"assume_role"`
	AssumeRoleWithWebIdentity types.Object `tfsdk:"assume_role_with_web_identity"`
	Endpoints                 types.Object `tfsdk:"endpoints"`
	UserAgent                 types.List   `tfsdk:"user_agent"`
	DefaultTags               types.Object `tfsdk:"default_tags"`
}

type roleModel struct {
	RoleARN              types.String `tfsdk:"role_arn"`
	SessionName          types.String `tfsdk:"session_name"`
	Duration             types.String `tfsdk:"duration"`
	Policy               types.String `tfsdk:"policy"`
	PolicyARNs           types.List   `tfsdk:"policy_arns"`
	ExternalID           types.String `tfsdk:"external_id"`
	Tags                 types.Map    `tfsdk:"tags"`
	TransitiveTagKeys    types.Set    `tfsdk:"transitive_tag_keys"`
	WebIdentityToken     types.String `tfsdk:"web_identity_token"`
	WebIdentityTokenFile types.String `tfsdk:"web_identity_token_file"`
}

type endpointsModel struct {
	CloudControlAPI types.String `tfsdk:"cloudcontrolapi"`
	IAM             types.String `tfsdk:"iam"`
	SSO             types.String `tfsdk:"sso"`
	STS             types.String `tfsdk:"sts"`
}

type userAgentModel struct {
	ProductName    types.String `tfsdk:"product_name"`
	ProductVersion types.String `tfsdk:"product_version"`
	Comment        types.String `tfsdk:"comment"`
}

type defaultTagsModel struct {
	Tags types.Map `tfsdk:"tags"`
}

// Configure implements provider.Provider for a provider that is not
// stopped by a server (see instance.Configure).
func (p *Provider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	(&instance{Provider: p, stop: context.Background()}).Configure(ctx, req, resp)
}

// Configure builds the runtime every resource and data source of this
// provider configuration shares. A configuration with unknown values
// (planning before the values they depend on exist) is not an error: the
// runtime then answers every call with an error saying so, and default
// tags plan as unknown.
func (in *instance) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var m providerModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	rt := &runtime{stop: in.stop, poll: defaultBackoff, lists: newListCache(in.listCacheTTL)}
	resp.ResourceData, resp.DataSourceData, resp.ListResourceData = rt, rt, rt
	s, known, ds := decodeSettings(ctx, m)
	if resp.Diagnostics.Append(ds...); resp.Diagnostics.HasError() {
		return
	}
	rt.defaultTags, rt.defaultTagsUnknown = s.DefaultTags, s.DefaultTagsUnknown
	rt.region, rt.roleARN = s.Region, s.RoleARN
	if in.testAPI != nil {
		rt.api = in.testAPI
		if in.testBackoff != nil {
			rt.poll = *in.testBackoff
		}
		return
	}
	if !known {
		rt.api = unconfigured{}
		return
	}
	cfg, err := awsConfig(ctx, s)
	if err != nil {
		resp.Diagnostics.AddError("Cannot configure the AWS Cloud Control client", err.Error())
		return
	}
	rt.region = cfg.Region
	rt.api = cloudControlClient(cfg, s)
	rt.accounts = newAccountSource(cfg, s)
}
