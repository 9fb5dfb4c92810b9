package awscc

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// decodeSettings turns the decoded provider block into settings. known is
// false when any value is unknown; the settings then hold what is known.
// The diagnostics are about values the user set (a duration that does
// not parse, a negative max_retries), with their paths.
func decodeSettings(ctx context.Context, m providerModel) (s settings, known bool, ds diag.Diagnostics) {
	d := decoder{ctx: ctx, known: true}
	s = settings{
		Region: d.str(m.Region), Profile: d.str(m.Profile),
		AccessKey: d.str(m.AccessKey), SecretKey: d.str(m.SecretKey), Token: d.str(m.Token),
		RoleARN:           d.str(m.RoleARN),
		SharedConfigFiles: d.strings(m.SharedConfigFiles), SharedCredentialFiles: d.strings(m.SharedCredentialsFiles),
		HTTPProxy: d.str(m.HTTPProxy), HTTPSProxy: d.str(m.HTTPSProxy), NoProxy: d.str(m.NoProxy),
		Insecure:             d.boolean(m.Insecure),
		SkipMetadataAPICheck: d.boolean(m.SkipMetadataAPICheck) || d.boolean(m.SkipMedatadataAPICheck),
		MaxRetries:           defaultMaxRetries,
	}
	if !m.MaxRetries.IsNull() && d.isKnown(m.MaxRetries) {
		if n := m.MaxRetries.ValueInt64(); n < 0 || n > 1000 {
			d.ds.AddAttributeError(path.Root("max_retries"), "Invalid max_retries", "max_retries must be between 0 and 1000.")
		} else {
			s.MaxRetries = int(n)
		}
	}
	// A session token is part of a key pair: without one it would be
	// ignored, and the credentials used would be others than meant.
	if s.Token != "" && (m.AccessKey.IsNull() || m.SecretKey.IsNull()) {
		d.ds.AddAttributeError(path.Root("token"), "Invalid token", "token requires access_key and secret_key: set them too, or remove token.")
	}
	s.AssumeRole = d.role(m.AssumeRole, "assume_role")
	s.WebIdentity = d.role(m.AssumeRoleWithWebIdentity, "assume_role_with_web_identity")
	var ep endpointsModel
	if d.object(m.Endpoints, &ep) {
		s.CloudControlEndpoint, s.STSEndpoint = d.str(ep.CloudControlAPI), d.str(ep.STS)
	}
	if d.isKnown(m.UserAgent) && !m.UserAgent.IsNull() && !d.unknownIn(m.UserAgent.Elements()) {
		var uas []userAgentModel
		d.ds.Append(m.UserAgent.ElementsAs(ctx, &uas, false)...)
		for _, ua := range uas {
			s.UserAgent = append(s.UserAgent, userAgentProduct{Name: d.str(ua.ProductName), Version: d.str(ua.ProductVersion)})
		}
	}
	// Unknown default tags do not stop the provider from calling AWS: only
	// the tags_all they feed is unknown.
	known = d.known
	var dt defaultTagsModel
	switch {
	case !d.object(m.DefaultTags, &dt):
		s.DefaultTagsUnknown = m.DefaultTags.IsUnknown()
	case dt.Tags.IsUnknown() || anyUnknown(mapValues(dt.Tags)):
		s.DefaultTagsUnknown = true
	case !dt.Tags.IsNull():
		s.DefaultTags = map[string]string{}
		d.ds.Append(dt.Tags.ElementsAs(ctx, &s.DefaultTags, false)...)
	}
	return s, known, d.ds
}

// decoder reads framework values, noting whether any was unknown.
type decoder struct {
	ctx   context.Context
	known bool
	ds    diag.Diagnostics
}

func (d *decoder) isKnown(v attr.Value) bool {
	if v.IsUnknown() {
		d.known = false
		return false
	}
	return true
}

func (d *decoder) str(v types.String) string {
	d.isKnown(v)
	return v.ValueString()
}

func (d *decoder) boolean(v types.Bool) bool {
	d.isKnown(v)
	return v.ValueBool()
}

func (d *decoder) strings(v basetypes.ListValue) []string {
	if !d.isKnown(v) || v.IsNull() {
		return nil
	}
	if anyUnknown(v.Elements()) {
		d.known = false
		return nil
	}
	var out []string
	d.ds.Append(v.ElementsAs(d.ctx, &out, false)...)
	return out
}

// object decodes a known, non-null object into target.
func (d *decoder) object(v types.Object, target any) bool {
	if !d.isKnown(v) || v.IsNull() {
		return false
	}
	d.ds.Append(v.As(d.ctx, target, basetypes.ObjectAsOptions{UnhandledUnknownAsEmpty: true})...)
	return !d.ds.HasError()
}

func (d *decoder) role(v types.Object, name string) *roleSettings {
	var m roleModel
	if !d.object(v, &m) {
		return nil
	}
	r := &roleSettings{
		RoleARN: d.str(m.RoleARN), SessionName: d.str(m.SessionName), Policy: d.str(m.Policy),
		PolicyARNs: d.strings(m.PolicyARNs), ExternalID: d.str(m.ExternalID),
		WebIdentityToken: d.str(m.WebIdentityToken), WebIdentityTokenFile: d.str(m.WebIdentityTokenFile),
	}
	if dur := d.str(m.Duration); dur != "" {
		p, err := time.ParseDuration(dur)
		if err != nil || p < 15*time.Minute || p > 12*time.Hour {
			d.ds.AddAttributeError(path.Root(name).AtName("duration"), "Invalid duration",
				fmt.Sprintf("%q is not a duration from 15m to 12h, such as \"1h\".", dur))
		}
		r.Duration = p
	}
	if d.isKnown(m.Tags) && !m.Tags.IsNull() && !d.unknownIn(mapValues(m.Tags)) {
		r.Tags = map[string]string{}
		d.ds.Append(m.Tags.ElementsAs(d.ctx, &r.Tags, false)...)
	}
	if d.isKnown(m.TransitiveTagKeys) && !m.TransitiveTagKeys.IsNull() && !d.unknownIn(m.TransitiveTagKeys.Elements()) {
		d.ds.Append(m.TransitiveTagKeys.ElementsAs(d.ctx, &r.TransitiveTagKeys, false)...)
	}
	return r
}

// anyUnknown reports whether any element is (or holds) an unknown value.
func anyUnknown(elems []attr.Value) bool {
	for _, e := range elems {
		if e.IsUnknown() {
			return true
		}
		if o, ok := e.(basetypes.ObjectValue); ok {
			for _, a := range o.Attributes() {
				if a.IsUnknown() {
					return true
				}
			}
		}
	}
	return false
}

func mapValues(m types.Map) []attr.Value {
	out := make([]attr.Value, 0, len(m.Elements()))
	for _, v := range m.Elements() {
		out = append(out, v)
	}
	return out
}

// unknownIn notes and reports unknown elements.
func (d *decoder) unknownIn(elems []attr.Value) bool {
	if anyUnknown(elems) {
		d.known = false
		return true
	}
	return false
}

// errConfigUnknown answers calls made while the provider configuration is
// not known yet.
var errConfigUnknown = errors.New("the awscc provider configuration depends on values not known until apply, so Cloud Control cannot be called yet")

// unconfigured is the api of a provider whose configuration is not known.
type unconfigured struct{}

func (unconfigured) CreateResource(context.Context, *cloudcontrol.CreateResourceInput, ...func(*cloudcontrol.Options)) (*cloudcontrol.CreateResourceOutput, error) {
	return nil, errConfigUnknown
}

func (unconfigured) GetResource(context.Context, *cloudcontrol.GetResourceInput, ...func(*cloudcontrol.Options)) (*cloudcontrol.GetResourceOutput, error) {
	return nil, errConfigUnknown
}

func (unconfigured) UpdateResource(context.Context, *cloudcontrol.UpdateResourceInput, ...func(*cloudcontrol.Options)) (*cloudcontrol.UpdateResourceOutput, error) {
	return nil, errConfigUnknown
}

func (unconfigured) DeleteResource(context.Context, *cloudcontrol.DeleteResourceInput, ...func(*cloudcontrol.Options)) (*cloudcontrol.DeleteResourceOutput, error) {
	return nil, errConfigUnknown
}

func (unconfigured) ListResources(context.Context, *cloudcontrol.ListResourcesInput, ...func(*cloudcontrol.Options)) (*cloudcontrol.ListResourcesOutput, error) {
	return nil, errConfigUnknown
}

func (unconfigured) GetResourceRequestStatus(context.Context, *cloudcontrol.GetResourceRequestStatusInput, ...func(*cloudcontrol.Options)) (*cloudcontrol.GetResourceRequestStatusOutput, error) {
	return nil, errConfigUnknown
}

func (unconfigured) CancelResourceRequest(context.Context, *cloudcontrol.CancelResourceRequestInput, ...func(*cloudcontrol.Options)) (*cloudcontrol.CancelResourceRequestOutput, error) {
	return nil, errConfigUnknown
}
