package command

import (
	"context"
	"encoding/base64"
	"fmt"
	"math/big"
	"regexp"
	"strings"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/backends"
	"github.com/cairn-iac/cairn/internal/backends/s3"
	"github.com/cairn-iac/cairn/internal/diags"
)

// s3RetryEnv bounds how long an unreachable bucket is retried (a Go
// duration; 30s when unset). Tests shorten it.
const s3RetryEnv = "CAIRN_S3_RETRY_TIMEOUT"

// openS3Backend decodes backend "s3" as OpenTofu 1.12.6 does and opens
// it. Diagnostics never quote secret_key, token or sse_customer_key.
func openS3Backend(m *Meta, a backendArgs, enc backends.StateTransform) (backends.Backend, diags.Diagnostics) {
	cfg, ds := m.decodeS3(a)
	if ds.HasErrors() {
		return nil, ds
	}
	cfg.Transform = enc
	b, err := s3.Open(context.Background(), cfg)
	if err != nil {
		return nil, ds.Append(diags.At(a.decl, `Failed to configure the backend "s3"`, redactSecrets(err.Error(), cfg)))
	}
	return b, ds
}

// redactSecrets removes the configuration's secrets from msg: whatever
// the SDK puts in an error, no secret reaches the terminal or a log.
func redactSecrets(msg string, cfg s3.Config) string {
	for _, secret := range []string{cfg.SecretKey, cfg.Token, cfg.SSECustomerKey} {
		if len(secret) >= 4 {
			msg = strings.ReplaceAll(msg, secret, "(sensitive value)")
		}
	}
	return msg
}

// s3Storage is the endpoint, bucket, key and workspace prefix: where the
// states are.
func s3Storage(m *Meta, a backendArgs) (string, diags.Diagnostics) {
	c, ds := m.decodeS3(a)
	prefix := c.WorkspaceKeyPrefix
	if prefix == "" {
		prefix = s3.DefaultWorkspaceKeyPrefix
	}
	return strings.Join([]string{"s3", c.S3Endpoint, c.Region, c.Bucket, c.Key, prefix}, "\x00"), ds
}

// decodeS3 turns the arguments into s3.Config: OpenTofu's checks, its
// environment fallbacks (read through m.Getenv, so that the SDK sees what
// the command was given), and its warnings for deprecated names.
func (m *Meta) decodeS3(a backendArgs) (s3.Config, diags.Diagnostics) {
	var ds diags.Diagnostics
	cfg := s3.Config{
		Bucket: a.str("bucket"), Key: a.str("key"), Region: a.str("region"),
		WorkspaceKeyPrefix: a.str("workspace_key_prefix"),
		Encrypt:            a.boolean("encrypt"), KMSKeyID: a.str("kms_key_id"), ACL: a.str("acl"),
		AccessKey: m.s3Env(a, "access_key", "AWS_ACCESS_KEY_ID"), SecretKey: m.s3Env(a, "secret_key", "AWS_SECRET_ACCESS_KEY"),
		Token: m.s3Env(a, "token", "AWS_SESSION_TOKEN"), Profile: m.s3Env(a, "profile", "AWS_PROFILE"),
		SkipCredentialsValidation: a.boolean("skip_credentials_validation"),
		SkipRegionValidation:      a.boolean("skip_region_validation"),
		SkipRequestingAccountID:   a.boolean("skip_requesting_account_id"),
		SkipMetadataAPICheck:      a.boolean("skip_metadata_api_check"),
		SkipS3Checksum:            a.boolean("skip_s3_checksum"),
		UseLockfile:               a.boolean("use_lockfile"), DynamoDBTable: a.str("dynamodb_table"),
		UsePathStyle: a.boolean("use_path_style") || a.boolean("force_path_style"),
	}
	ds = ds.Append(m.s3Required(a, &cfg))
	ds = ds.Append(s3Deprecations(a))
	ds = ds.Append(m.s3Endpoints(a, &cfg))
	ds = ds.Append(m.s3Encryption(a, &cfg))
	ds = ds.Append(m.s3Credentials(a, &cfg))
	ds = ds.Append(s3Unsupported(a))
	if v, ok := a.args["max_retries"]; ok {
		n, acc := v.val.AsBigFloat().Int64()
		if acc != big.Exact || n < 0 {
			ds = ds.Append(diags.At(v.expr, "Invalid max_retries value", "max_retries must be a whole number, 0 or more."))
		}
		cfg.MaxRetries = int(n)
	}
	if v := m.Getenv(s3RetryEnv); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			ds = ds.Append(diags.Errorf("Invalid "+s3RetryEnv, "%s is not a duration (like 30s): %s", s3RetryEnv, err))
		}
		cfg.RetryFor = d
	}
	return cfg, ds
}

// s3Env is argument name, or environment variable env when not given.
func (m *Meta) s3Env(a backendArgs, name, env string) string {
	if a.has(name) {
		return a.str(name)
	}
	return m.Getenv(env)
}

// s3Required checks bucket, key, region and workspace_key_prefix with
// OpenTofu's messages.
func (m *Meta) s3Required(a backendArgs, cfg *s3.Config) diags.Diagnostics {
	var ds diags.Diagnostics
	if cfg.Bucket == "" {
		ds = ds.Append(a.diagAt("bucket", "Invalid bucket value", `The "bucket" attribute value must not be empty.`))
	}
	switch {
	case cfg.Key == "":
		ds = ds.Append(a.diagAt("key", "Invalid key value", `The "key" attribute value must not be empty.`))
	case strings.HasPrefix(cfg.Key, "/") || strings.HasSuffix(cfg.Key, "/"):
		ds = ds.Append(a.diagAt("key", "Invalid key value", `The "key" attribute value must not start or end with with "/".`))
	}
	if cfg.Region == "" {
		cfg.Region = m.Getenv("AWS_REGION")
	}
	if cfg.Region == "" {
		cfg.Region = m.Getenv("AWS_DEFAULT_REGION")
	}
	switch {
	case cfg.Region == "":
		ds = ds.Append(a.diagAt("region", "Missing region value",
			`The "region" attribute or the "AWS_REGION" or "AWS_DEFAULT_REGION" environment variables must be set.`))
	case !cfg.SkipRegionValidation && !awsRegion.MatchString(cfg.Region):
		ds = ds.Append(a.diagAt("region", "Invalid region value", "invalid AWS Region: "+cfg.Region))
	}
	if p := cfg.WorkspaceKeyPrefix; strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") {
		ds = ds.Append(a.diagAt("workspace_key_prefix", "Invalid workspace_key_prefix value",
			`The "workspace_key_prefix" attribute value must not start with "/".`))
	}
	return ds
}

// awsRegion matches the names of the regions of AWS's partitions (aws,
// aws-cn, aws-us-gov and the isolated ones). OpenTofu checks a region
// against the SDK's list of regions; a pattern accepts a region newer
// than that list too. skip_region_validation turns the check off, for
// S3-compatible servers with regions of their own.
var awsRegion = regexp.MustCompile(`^(us|eu|ap|sa|ca|me|af|il|mx|cn)(-gov|-iso[a-z]?)?-[a-z]+-\d+$`)

// s3Endpoints sets the endpoints: endpoints.X, its deprecated name, then
// AWS_ENDPOINT_URL_X and the older AWS_X_ENDPOINT, as OpenTofu reads
// them; an endpoint without a scheme gets https://.
func (m *Meta) s3Endpoints(a backendArgs, cfg *s3.Config) diags.Diagnostics {
	var ds diags.Diagnostics
	var nested cty.Value
	if v, ok := a.args["endpoints"]; ok {
		nested = v.val
	}
	for _, e := range []struct {
		service, old string
		envs         []string
		dst          *string
	}{
		{"s3", "endpoint", []string{"AWS_ENDPOINT_URL_S3", "AWS_S3_ENDPOINT"}, &cfg.S3Endpoint},
		{"dynamodb", "dynamodb_endpoint", []string{"AWS_ENDPOINT_URL_DYNAMODB", "AWS_DYNAMODB_ENDPOINT"}, &cfg.DynamoDBEndpoint},
		{"sts", "sts_endpoint", []string{"AWS_ENDPOINT_URL_STS", "AWS_STS_ENDPOINT"}, &cfg.STSEndpoint},
		{"iam", "iam_endpoint", []string{"AWS_ENDPOINT_URL_IAM", "AWS_IAM_ENDPOINT"}, &cfg.IAMEndpoint},
	} {
		var fromNested string
		if nested != cty.NilVal {
			if v := nested.GetAttr(e.service); !v.IsNull() {
				fromNested = v.AsString()
			}
		}
		if fromNested != "" && a.has(e.old) {
			ds = ds.Append(a.diagAt(e.old, "Invalid Attribute Combination",
				fmt.Sprintf("Only one of endpoints.%s, %s can be set.", e.service, e.old)))
		}
		*e.dst = fromNested
		if *e.dst == "" {
			*e.dst = a.str(e.old)
		}
		for _, env := range e.envs {
			if *e.dst == "" {
				*e.dst = m.Getenv(env)
			}
		}
		if *e.dst != "" && !strings.Contains(*e.dst, "://") {
			*e.dst = "https://" + *e.dst
		}
	}
	if a.has("force_path_style") && a.has("use_path_style") {
		ds = ds.Append(a.diagAt("force_path_style", "Invalid Attribute Combination",
			"Only one of force_path_style, use_path_style can be set."))
	}
	return ds
}

// s3Encryption checks sse_customer_key (or AWS_SSE_CUSTOMER_KEY) and its
// conflict with kms_key_id. The key itself is never quoted.
func (m *Meta) s3Encryption(a backendArgs, cfg *s3.Config) diags.Diagnostics {
	var ds diags.Diagnostics
	key, name := a.str("sse_customer_key"), "sse_customer_key"
	if !a.has(name) {
		key, name = m.Getenv("AWS_SSE_CUSTOMER_KEY"), "AWS_SSE_CUSTOMER_KEY"
	}
	if key == "" {
		return nil
	}
	if cfg.KMSKeyID != "" {
		return ds.Append(a.diagAt("kms_key_id", "Invalid encryption configuration",
			fmt.Sprintf(`Only one of "kms_key_id" and %q can be set.`, name)))
	}
	if len(key) != 44 {
		return ds.Append(a.diagAt("sse_customer_key", "Invalid "+name+" value", name+" must be 44 characters in length"))
	}
	if _, err := base64.StdEncoding.DecodeString(key); err != nil {
		return ds.Append(a.diagAt("sse_customer_key", "Invalid "+name+" value", name+" must be base64 encoded"))
	}
	cfg.SSECustomerKey = key
	return ds
}
