package awscc

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/feature/ec2/imds"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"golang.org/x/net/http/httpproxy"
)

// loaded applies the load options of s to empty LoadOptions.
func loaded(t *testing.T, s settings) config.LoadOptions {
	t.Helper()
	var lo config.LoadOptions
	for _, o := range loadOptions(s) {
		if err := o(&lo); err != nil {
			t.Fatal(err)
		}
	}
	return lo
}

func TestLoadOptions(t *testing.T) {
	cases := map[string]struct {
		reason string
		s      settings
		check  func(t *testing.T, lo config.LoadOptions)
	}{
		"empty": {
			reason: "Unset arguments leave the SDK's own sources alone.",
			s:      settings{MaxRetries: defaultMaxRetries},
			check: func(t *testing.T, lo config.LoadOptions) {
				if lo.Region != "" || lo.SharedConfigProfile != "" || lo.Credentials != nil || lo.HTTPClient != nil || lo.EC2IMDSClientEnableState != imds.ClientDefaultEnableState {
					t.Errorf("options set: %+v", lo)
				}
				if n := lo.Retryer().MaxAttempts(); n != defaultMaxRetries+1 {
					t.Errorf("max attempts %d, want %d", n, defaultMaxRetries+1)
				}
			},
		},
		"named": {
			reason: "region, profile and shared files map one to one.",
			s:      settings{Region: "eu-west-1", Profile: "ops", SharedConfigFiles: []string{"c"}, SharedCredentialFiles: []string{"k"}, MaxRetries: 3},
			check: func(t *testing.T, lo config.LoadOptions) {
				got := []any{lo.Region, lo.SharedConfigProfile, lo.SharedConfigFiles, lo.SharedCredentialsFiles, lo.Retryer().MaxAttempts()}
				if diff := cmp.Diff([]any{"eu-west-1", "ops", []string{"c"}, []string{"k"}, 4}, got); diff != "" {
					t.Errorf("(-want +got):\n%s", diff)
				}
			},
		},
		"static credentials": {
			reason: "access_key, secret_key and token are static credentials.",
			s:      settings{AccessKey: "AK", SecretKey: "SK", Token: "TK"},
			check: func(t *testing.T, lo config.LoadOptions) {
				c, err := lo.Credentials.Retrieve(context.Background())
				if err != nil || c.AccessKeyID != "AK" || c.SecretAccessKey != "SK" || c.SessionToken != "TK" {
					t.Errorf("credentials %+v %v", c, err)
				}
			},
		},
		"no imds": {
			reason: "skip_metadata_api_check disables the instance metadata client.",
			s:      settings{SkipMetadataAPICheck: true},
			check: func(t *testing.T, lo config.LoadOptions) {
				if lo.EC2IMDSClientEnableState != imds.ClientDisabled {
					t.Errorf("IMDS state %v", lo.EC2IMDSClientEnableState)
				}
			},
		},
		"proxy": {
			reason: "Proxies and insecure give the provider an HTTP client of its own.",
			s:      settings{HTTPSProxy: "http://proxy:3128", NoProxy: "internal.example", Insecure: true},
			check: func(t *testing.T, lo config.LoadOptions) {
				tr := lo.HTTPClient.(*http.Client).Transport.(*http.Transport)
				if !tr.TLSClientConfig.InsecureSkipVerify {
					t.Error("TLS verification still on")
				}
				for target, want := range map[string]string{"https://cloudcontrolapi.eu-west-1.amazonaws.com/": "http://proxy:3128", "https://internal.example/": "<nil>"} {
					req, _ := http.NewRequest(http.MethodGet, target, nil)
					u, err := tr.Proxy(req)
					got := "<nil>"
					if u != nil {
						got = u.String()
					}
					if err != nil || got != want {
						t.Errorf("proxy for %s: %v %v, want %s", target, u, err, want)
					}
				}
			},
		},
		"user agent": {
			reason: "Each product adds a User-Agent middleware.",
			s:      settings{UserAgent: []userAgentProduct{{"acme", "1.0"}, {"ci", ""}}},
			check: func(t *testing.T, lo config.LoadOptions) {
				if len(lo.APIOptions) != 2 {
					t.Errorf("%d API options, want 2", len(lo.APIOptions))
				}
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Log(tc.reason)
			tc.check(t, loaded(t, tc.s))
		})
	}
}

func TestProxyConfig(t *testing.T) {
	env := &httpproxy.Config{HTTPProxy: "http://env:1", HTTPSProxy: "http://env:2", NoProxy: "env.example"}
	cases := map[string]struct {
		reason string
		s      settings
		want   httpproxy.Config
	}{
		"https only": {reason: "Setting https_proxy keeps the environment's HTTP proxy and exclusions.",
			s:    settings{HTTPSProxy: "http://p:3"},
			want: httpproxy.Config{HTTPProxy: "http://env:1", HTTPSProxy: "http://p:3", NoProxy: "env.example"}},
		"no_proxy only": {reason: "Setting no_proxy keeps the environment's proxies.",
			s:    settings{NoProxy: "internal"},
			want: httpproxy.Config{HTTPProxy: "http://env:1", HTTPSProxy: "http://env:2", NoProxy: "internal"}},
		"all": {reason: "Every field set replaces the environment's.",
			s:    settings{HTTPProxy: "http://a", HTTPSProxy: "http://b", NoProxy: "c"},
			want: httpproxy.Config{HTTPProxy: "http://a", HTTPSProxy: "http://b", NoProxy: "c"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, *proxyConfig(tc.s, env)); diff != "" {
				t.Errorf("%s\n(-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

func TestAssumeRoleOptions(t *testing.T) {
	var o stscreds.AssumeRoleOptions
	assumeRoleOptions(roleSettings{RoleARN: "arn:role", SessionName: "s", Duration: time.Hour, ExternalID: "x", Policy: "{}",
		PolicyARNs: []string{"arn:p"}, Tags: map[string]string{"k": "v"}, TransitiveTagKeys: []string{"k"}})(&o)
	got := []any{o.RoleSessionName, o.Duration, aws.ToString(o.ExternalID), aws.ToString(o.Policy), aws.ToString(o.PolicyARNs[0].Arn),
		aws.ToString(o.Tags[0].Key) + "=" + aws.ToString(o.Tags[0].Value), o.TransitiveTagKeys}
	want := []any{"s", time.Hour, "x", "{}", "arn:p", "k=v", []string{"k"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("assume_role options (-want +got):\n%s", diff)
	}
}

func TestDecodeSettings(t *testing.T) {
	ctx := context.Background()
	str := types.StringValue
	cases := map[string]struct {
		reason    string
		model     providerModel
		want      settings
		wantKnown bool
		wantDiag  string
	}{
		"defaults": {
			reason: "An empty block retries 25 times.", model: nullModel(), want: settings{MaxRetries: 25}, wantKnown: true,
		},
		"unknown region": {
			reason: "An unknown value is not an error at plan time; it is reported as not known.",
			model:  with(nullModel(), func(m *providerModel) { m.Region = types.StringUnknown() }),
			want:   settings{MaxRetries: 25},
		},
		"unknown default tags": {
			reason: "Unknown default tags do not stop calls; they make tags_all unknown.",
			model: with(nullModel(), func(m *providerModel) {
				m.DefaultTags = types.ObjectValueMust(map[string]attr.Type{"tags": types.MapType{ElemType: types.StringType}},
					map[string]attr.Value{"tags": types.MapUnknown(types.StringType)})
			}),
			want: settings{MaxRetries: 25, DefaultTagsUnknown: true}, wantKnown: true,
		},
		"values": {
			reason: "Values and default tags carry over; skip_medatadata_api_check is the old spelling.",
			model: with(nullModel(), func(m *providerModel) {
				m.Region, m.RoleARN, m.MaxRetries = str("eu-west-1"), str("arn:cc"), types.Int64Value(2)
				m.SkipMedatadataAPICheck = types.BoolValue(true)
				m.DefaultTags = types.ObjectValueMust(map[string]attr.Type{"tags": types.MapType{ElemType: types.StringType}},
					map[string]attr.Value{"tags": types.MapValueMust(types.StringType, map[string]attr.Value{"team": str("infra")})})
			}),
			want:      settings{Region: "eu-west-1", RoleARN: "arn:cc", MaxRetries: 2, SkipMetadataAPICheck: true, DefaultTags: map[string]string{"team": "infra"}},
			wantKnown: true,
		},
		"token alone": {
			reason: "A session token without its key pair is the user's error, not ignored.",
			model:  with(nullModel(), func(m *providerModel) { m.Token = str("TK") }),
			want:   settings{MaxRetries: 25}, wantKnown: true, wantDiag: "Invalid token",
		},
		"token half a pair": {
			reason: "So it is with only one of the pair.",
			model:  with(nullModel(), func(m *providerModel) { m.Token, m.AccessKey = str("TK"), str("AK") }),
			want:   settings{MaxRetries: 25}, wantKnown: true, wantDiag: "Invalid token",
		},
		"token with pair": {
			reason: "A token with its key pair is fine.",
			model:  with(nullModel(), func(m *providerModel) { m.Token, m.AccessKey, m.SecretKey = str("TK"), str("AK"), str("SK") }),
			want:   settings{MaxRetries: 25, AccessKey: "AK", SecretKey: "SK", Token: "TK"}, wantKnown: true,
		},
		"bad retries": {
			reason: "A negative max_retries is the user's error, at its path.",
			model:  with(nullModel(), func(m *providerModel) { m.MaxRetries = types.Int64Value(-1) }),
			want:   settings{MaxRetries: 25}, wantKnown: true, wantDiag: "Invalid max_retries",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, known, ds := decodeSettings(ctx, tc.model)
			if tc.wantDiag != "" {
				if !ds.HasError() || ds.Errors()[0].Summary() != tc.wantDiag {
					t.Errorf("%s\ndiagnostics %v, want %q", tc.reason, ds, tc.wantDiag)
				}
				return
			}
			if ds.HasError() {
				t.Fatal(ds)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" || known != tc.wantKnown {
				t.Errorf("%s\nknown %t, want %t; settings (-want +got):\n%s", tc.reason, known, tc.wantKnown, diff)
			}
		})
	}
}

// nullModel is a provider block that sets nothing.
func nullModel() providerModel {
	null := types.StringNull()
	return providerModel{
		Schemas: null, Region: null, Profile: null, AccessKey: null, SecretKey: null, Token: null, RoleARN: null,
		SharedConfigFiles: types.ListNull(types.StringType), SharedCredentialsFiles: types.ListNull(types.StringType),
		HTTPProxy: null, HTTPSProxy: null, NoProxy: null, Insecure: types.BoolNull(), MaxRetries: types.Int64Null(),
		SkipMetadataAPICheck: types.BoolNull(), SkipMedatadataAPICheck: types.BoolNull(),
		AssumeRole: types.ObjectNull(nil), AssumeRoleWithWebIdentity: types.ObjectNull(nil), Endpoints: types.ObjectNull(nil),
		UserAgent: types.ListNull(types.StringType), DefaultTags: types.ObjectNull(nil),
	}
}

func with(m providerModel, f func(*providerModel)) providerModel {
	f(&m)
	return m
}

// TestAWSConfigNoRegion: with no region anywhere, configuring fails with
// a message that says where to set one, and no secret.
func TestAWSConfigNoRegion(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AWS_REGION", "")
	t.Setenv("AWS_DEFAULT_REGION", "")
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
	_, err := awsConfig(context.Background(), settings{AccessKey: "AK", SecretKey: "very-secret", SkipMetadataAPICheck: true})
	if !errors.Is(err, errNoRegion) {
		t.Fatalf("error %v, want errNoRegion", err)
	}
	if strings.Contains(err.Error(), "very-secret") {
		t.Errorf("the error shows the secret: %v", err)
	}
}
