package awscc

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/feature/ec2/imds"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	ststypes "github.com/aws/aws-sdk-go-v2/service/sts/types"
	"github.com/aws/smithy-go/logging"
	"github.com/aws/smithy-go/middleware"
	"golang.org/x/net/http/httpproxy"
)

// settings are the provider block's values once known, in plain Go
// types: what building the AWS configuration needs.
type settings struct {
	Region, Profile                          string
	AccessKey, SecretKey, Token              string
	RoleARN                                  string
	SharedConfigFiles, SharedCredentialFiles []string
	HTTPProxy, HTTPSProxy, NoProxy           string
	Insecure                                 bool
	// MaxRetries is how often a failed call is retried (25 when unset).
	MaxRetries           int
	SkipMetadataAPICheck bool
	AssumeRole           *roleSettings
	WebIdentity          *roleSettings
	CloudControlEndpoint string
	STSEndpoint          string
	UserAgent            []userAgentProduct
	DefaultTags          map[string]string
	// DefaultTagsUnknown is set while default_tags are not known.
	DefaultTagsUnknown bool
}

// roleSettings are assume_role's or assume_role_with_web_identity's.
type roleSettings struct {
	RoleARN, SessionName, Policy string
	Duration                     time.Duration
	PolicyARNs                   []string
	// assume_role only.
	ExternalID        string
	Tags              map[string]string
	TransitiveTagKeys []string
	// assume_role_with_web_identity only.
	WebIdentityToken, WebIdentityTokenFile string
}

type userAgentProduct struct{ Name, Version string }

const defaultMaxRetries = 25

// loadOptions maps the settings onto the SDK's shared configuration
// loading. What the block leaves unset keeps the SDK's own sources:
// environment (AWS_REGION, AWS_ENDPOINT_URL_CLOUDCONTROL, ...), shared
// files, IMDS.
func loadOptions(s settings) []func(*config.LoadOptions) error {
	// The SDK's own warnings (an IMDSv1 fallback, say) would be printed
	// among the engine's output; errors reach the user as diagnostics.
	opts := []func(*config.LoadOptions) error{config.WithLogger(logging.Nop{})}
	if s.Region != "" {
		opts = append(opts, config.WithRegion(s.Region))
	}
	if s.Profile != "" {
		opts = append(opts, config.WithSharedConfigProfile(s.Profile))
	}
	if s.AccessKey != "" || s.SecretKey != "" {
		opts = append(opts, config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(s.AccessKey, s.SecretKey, s.Token)))
	}
	if len(s.SharedConfigFiles) > 0 {
		opts = append(opts, config.WithSharedConfigFiles(s.SharedConfigFiles))
	}
	if len(s.SharedCredentialFiles) > 0 {
		opts = append(opts, config.WithSharedCredentialsFiles(s.SharedCredentialFiles))
	}
	if s.SkipMetadataAPICheck {
		opts = append(opts, config.WithEC2IMDSClientEnableState(imds.ClientDisabled))
	}
	if s.HTTPProxy != "" || s.HTTPSProxy != "" || s.NoProxy != "" || s.Insecure {
		opts = append(opts, config.WithHTTPClient(httpClient(s)))
	}
	maxRetries := s.MaxRetries
	opts = append(opts, config.WithRetryer(func() aws.Retryer { return newRetryer(maxRetries) }))
	if len(s.UserAgent) > 0 {
		var apiOpts []func(*middleware.Stack) error
		for _, p := range s.UserAgent {
			apiOpts = append(apiOpts, awsmiddleware.AddUserAgentKeyValue(p.Name, p.Version))
		}
		opts = append(opts, config.WithAPIOptions(apiOpts))
	}
	return opts
}

// newRetryer is the retryer of one client, shared by all its calls. Every
// call retries throttling and transient errors, polls included, up to
// maxRetries times. No retry quota: a throttled apply waits rather than
// failing when the bucket runs dry.
//
// It is the SDK's adaptive mode: after a ThrottlingException the client
// limits its own send rate (cutting it multiplicatively, then growing it
// back along a cubic curve as calls succeed), so that a large plan or a
// controller observing thousands of objects slows to what Cloud Control
// accepts instead of sending ever more retries into the throttle. Until
// the first throttle it limits nothing. The engine's -parallelism still
// caps the operations in flight.
func newRetryer(maxRetries int) aws.RetryerV2 {
	return retry.NewAdaptiveMode(func(o *retry.AdaptiveModeOptions) {
		o.StandardOptions = append(o.StandardOptions, func(o *retry.StandardOptions) {
			o.MaxAttempts = maxRetries + 1
			o.RateLimiter = ratelimit.None
		})
	})
}

// httpClient is a client with its own transport, so proxy and TLS
// settings affect this provider only.
func httpClient(s settings) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if s.HTTPProxy != "" || s.HTTPSProxy != "" || s.NoProxy != "" {
		proxy := proxyConfig(s, httpproxy.FromEnvironment()).ProxyFunc()
		tr.Proxy = func(r *http.Request) (*url.URL, error) { return proxy(r.URL) }
	}
	if s.Insecure {
		tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // the user asked for it
	}
	return &http.Client{Transport: tr}
}

// proxyConfig returns the proxy configuration of env (HTTP_PROXY,
// HTTPS_PROXY, NO_PROXY) with the fields the provider block sets
// replaced: setting one of them keeps the environment's others, as the
// AWS provider does.
func proxyConfig(s settings, env *httpproxy.Config) *httpproxy.Config {
	out := *env
	if s.HTTPProxy != "" {
		out.HTTPProxy = s.HTTPProxy
	}
	if s.HTTPSProxy != "" {
		out.HTTPSProxy = s.HTTPSProxy
	}
	if s.NoProxy != "" {
		out.NoProxy = s.NoProxy
	}
	return &out
}

// errNoRegion says no source named a region.
var errNoRegion = errors.New("no AWS region: set region in the provider block, AWS_REGION, or a region in the shared configuration profile")

// awsConfig loads the AWS configuration: the shared sources as the
// settings adjust them, then the role to assume, if any. Its errors never
// hold a secret: they come from loading files and profiles.
func awsConfig(ctx context.Context, s settings) (aws.Config, error) {
	cfg, err := config.LoadDefaultConfig(ctx, loadOptions(s)...)
	if err != nil {
		return aws.Config{}, fmt.Errorf("loading the AWS configuration: %w", err)
	}
	if cfg.Region == "" {
		return aws.Config{}, errNoRegion
	}
	stsClient := func() *sts.Client {
		return sts.NewFromConfig(cfg, func(o *sts.Options) {
			if s.STSEndpoint != "" {
				o.BaseEndpoint = aws.String(s.STSEndpoint)
			}
		})
	}
	switch {
	case s.AssumeRole != nil:
		cfg.Credentials = aws.NewCredentialsCache(stscreds.NewAssumeRoleProvider(stsClient(), s.AssumeRole.RoleARN, assumeRoleOptions(*s.AssumeRole)))
	case s.WebIdentity != nil:
		w := *s.WebIdentity
		var token stscreds.IdentityTokenRetriever = stscreds.IdentityTokenFile(w.WebIdentityTokenFile)
		if w.WebIdentityToken != "" {
			token = staticToken(w.WebIdentityToken)
		}
		cfg.Credentials = aws.NewCredentialsCache(stscreds.NewWebIdentityRoleProvider(stsClient(), w.RoleARN, token,
			func(o *stscreds.WebIdentityRoleOptions) {
				o.RoleSessionName = w.SessionName
				o.Duration = w.Duration
				if w.Policy != "" {
					o.Policy = aws.String(w.Policy)
				}
				o.PolicyARNs = policyARNs(w.PolicyARNs)
			}))
	}
	return cfg, nil
}

// assumeRoleOptions maps assume_role onto the SDK's options.
func assumeRoleOptions(r roleSettings) func(*stscreds.AssumeRoleOptions) {
	return func(o *stscreds.AssumeRoleOptions) {
		if r.SessionName != "" {
			o.RoleSessionName = r.SessionName
		}
		if r.Duration > 0 {
			o.Duration = r.Duration
		}
		if r.ExternalID != "" {
			o.ExternalID = aws.String(r.ExternalID)
		}
		if r.Policy != "" {
			o.Policy = aws.String(r.Policy)
		}
		o.PolicyARNs = policyARNs(r.PolicyARNs)
		for k, v := range r.Tags {
			o.Tags = append(o.Tags, ststypes.Tag{Key: aws.String(k), Value: aws.String(v)})
		}
		o.TransitiveTagKeys = r.TransitiveTagKeys
	}
}

func policyARNs(arns []string) []ststypes.PolicyDescriptorType {
	var out []ststypes.PolicyDescriptorType
	for _, a := range arns {
		out = append(out, ststypes.PolicyDescriptorType{Arn: aws.String(a)})
	}
	return out
}

// staticToken is a web identity token given inline.
type staticToken string

func (t staticToken) GetIdentityToken() ([]byte, error) { return []byte(t), nil }

// cloudControlClient builds the client; endpoints.cloudcontrolapi, when
// set, wins over AWS_ENDPOINT_URL(_CLOUDCONTROL), which the SDK reads. A
// configured endpoint that cannot be reached fails fast (see
// configuredEndpoint).
func cloudControlClient(cfg aws.Config, s settings) *cloudcontrol.Client {
	return cloudcontrol.NewFromConfig(cfg, func(o *cloudcontrol.Options) {
		if s.CloudControlEndpoint != "" {
			o.BaseEndpoint = aws.String(s.CloudControlEndpoint)
		}
		if ep, ok := configuredEndpointOf(o, cfg, s.CloudControlEndpoint); ok {
			ep.failFast(o)
		}
	})
}
