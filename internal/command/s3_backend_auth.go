package command

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/backends/s3"
	"github.com/cairn-iac/cairn/internal/diags"
)

// s3Credentials reads the shared files (AWS_SHARED_CREDENTIALS_FILE and
// AWS_SHARED_CONFIG_FILE when not given) and the role to assume:
// assume_role, or the deprecated top-level arguments it replaced.
func (m *Meta) s3Credentials(a backendArgs, cfg *s3.Config) diags.Diagnostics {
	var ds diags.Diagnostics
	if a.has("shared_credentials_file") && a.has("shared_credentials_files") {
		ds = ds.Append(a.diagAt("shared_credentials_file", "Invalid Attribute Combination",
			"Only one of shared_credentials_file, shared_credentials_files can be set."))
	}
	cfg.SharedCredentialsFiles = s3Strings(a, "shared_credentials_files")
	if f := a.str("shared_credentials_file"); f != "" {
		cfg.SharedCredentialsFiles = []string{f}
	}
	if len(cfg.SharedCredentialsFiles) == 0 {
		cfg.SharedCredentialsFiles = splitEnvList(m.Getenv("AWS_SHARED_CREDENTIALS_FILE"))
	}
	cfg.SharedConfigFiles = s3Strings(a, "shared_config_files")
	if len(cfg.SharedConfigFiles) == 0 {
		cfg.SharedConfigFiles = splitEnvList(m.Getenv("AWS_SHARED_CONFIG_FILE"))
	}
	if v, ok := a.args["assume_role"]; ok {
		r, rds := s3AssumeRole(v)
		cfg.AssumeRole = r
		return ds.Append(rds)
	}
	if a.has("role_arn") {
		r := &s3.AssumeRole{
			RoleARN: a.str("role_arn"), SessionName: a.str("session_name"), ExternalID: a.str("external_id"),
			Policy: a.str("assume_role_policy"), PolicyARNs: s3Strings(a, "assume_role_policy_arns"),
			TransitiveTagKeys: s3Strings(a, "assume_role_transitive_tag_keys"),
		}
		if v, ok := a.args["assume_role_duration_seconds"]; ok {
			n, _ := v.val.AsBigFloat().Int64()
			r.Duration = time.Duration(n) * time.Second
		}
		if v, ok := a.args["assume_role_tags"]; ok {
			r.Tags = stringMap(v.val)
		}
		cfg.AssumeRole = r
	}
	return ds
}

// s3AssumeRole reads the assume_role object with OpenTofu's checks.
func s3AssumeRole(v backendArg) (*s3.AssumeRole, diags.Diagnostics) {
	var ds diags.Diagnostics
	get := func(name string) string {
		if x := v.val.GetAttr(name); !x.IsNull() {
			return x.AsString()
		}
		return ""
	}
	r := &s3.AssumeRole{
		RoleARN: get("role_arn"), SessionName: get("session_name"), ExternalID: get("external_id"),
		Policy: get("policy"), PolicyARNs: setStrings(v.val.GetAttr("policy_arns")),
		Tags: stringMap(v.val.GetAttr("tags")), TransitiveTagKeys: setStrings(v.val.GetAttr("transitive_tag_keys")),
	}
	if r.RoleARN == "" {
		ds = ds.Append(diags.At(v.expr, "Missing Required Value",
			"The attribute \"assume_role.role_arn\" is required by the backend.\n\n"+
				"Refer to the backend documentation for additional information which attributes are required."))
	}
	if d := get("duration"); d != "" {
		dur, err := time.ParseDuration(d)
		if err != nil || dur < 15*time.Minute || dur > 12*time.Hour {
			ds = ds.Append(diags.At(v.expr, "Invalid Duration",
				"assume_role.duration must be a duration (like 1h) between 15m and 12h."))
		}
		r.Duration = dur
	}
	for _, name := range []string{"external_id", "policy", "session_name"} {
		if x := v.val.GetAttr(name); !x.IsNull() && strings.TrimSpace(x.AsString()) == "" {
			ds = ds.Append(diags.At(v.expr, "Invalid Value", "assume_role."+name+": the value cannot be empty or all whitespace"))
		}
	}
	return r, ds
}

// s3Deprecations are OpenTofu's warnings for the names it still accepts.
func s3Deprecations(a backendArgs) diags.Diagnostics {
	var ds diags.Diagnostics
	warn := func(name, detail string) {
		d := a.diagAt(name, "Deprecated Parameter", detail)
		d.Severity = diags.Warning
		ds = append(ds, d)
	}
	for old, repl := range map[string]string{
		"endpoint": "endpoints.s3", "dynamodb_endpoint": "endpoints.dynamodb", "iam_endpoint": "endpoints.iam",
		"sts_endpoint": "endpoints.sts", "force_path_style": "use_path_style",
		"shared_credentials_file": "shared_credentials_files",
	} {
		if a.has(old) {
			warn(old, fmt.Sprintf("Parameter %q is deprecated. Use %q instead.", old, repl))
		}
	}
	roleNames := map[string]string{
		"role_arn": "assume_role.role_arn", "session_name": "assume_role.session_name",
		"external_id": "assume_role.external_id", "assume_role_duration_seconds": "assume_role.duration",
		"assume_role_policy": "assume_role.policy", "assume_role_policy_arns": "assume_role.policy_arns",
		"assume_role_tags": "assume_role.tags", "assume_role_transitive_tag_keys": "assume_role.transitive_tag_keys",
	}
	var defined []string
	for old := range roleNames {
		if a.has(old) {
			defined = append(defined, old)
		}
	}
	if len(defined) == 0 {
		return sortDiags(ds)
	}
	sort.Strings(defined)
	var list strings.Builder
	for _, old := range defined {
		fmt.Fprintf(&list, "  * %s -> %s\n", old, roleNames[old])
	}
	if a.has("assume_role") {
		return sortDiags(ds.Append(a.diagAt("assume_role", "Conflicting Parameters",
			`The following deprecated parameters conflict with the parameter "assume_role". Replace them as follows:`+"\n"+list.String())))
	}
	d := a.diagAt(defined[0], "Deprecated Parameters", "The following parameters have been deprecated. Replace them as follows:\n"+list.String())
	d.Severity = diags.Warning
	return sortDiags(append(ds, d))
}

// s3Unsupported refuses the OpenTofu arguments Cairn's s3 backend does
// not implement and that would change where or as whom it connects (an
// account restriction ignored would be unsafe), and warns for the ones
// whose absence only loses a nicety.
func s3Unsupported(a backendArgs) diags.Diagnostics {
	var ds diags.Diagnostics
	refused := []string{"allowed_account_ids", "forbidden_account_ids", "assume_role_with_web_identity",
		"custom_ca_bundle", "insecure", "http_proxy", "https_proxy", "no_proxy", "sts_region",
		"ec2_metadata_service_endpoint", "ec2_metadata_service_endpoint_mode", "use_fips_endpoint", "use_dualstack_endpoint"}
	for _, name := range refused {
		if a.has(name) {
			ds = ds.Append(diags.At(a.args[name].name, "Unsupported s3 backend argument",
				fmt.Sprintf("Cairn's s3 backend does not implement %s yet; remove it, or use OpenTofu for this configuration.", name)))
		}
	}
	for _, name := range []string{"state_tags", "lock_tags", "retry_mode"} {
		if a.has(name) {
			d := diags.At(a.args[name].name, "Argument ignored",
				fmt.Sprintf("Cairn's s3 backend does not implement %s yet; it is recorded, and otherwise ignored.", name))
			d.Severity = diags.Warning
			ds = append(ds, d)
		}
	}
	return ds
}

// sortDiags orders diagnostics by position, so that their order does not
// depend on a map's.
func sortDiags(ds diags.Diagnostics) diags.Diagnostics {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i].Subject, ds[j].Subject
		if a == nil || b == nil {
			return b != nil
		}
		return a.Start.Byte < b.Start.Byte
	})
	return ds
}

// s3Strings is the set-of-strings argument name, sorted.
func s3Strings(a backendArgs, name string) []string {
	if v, ok := a.args[name]; ok {
		return setStrings(v.val)
	}
	return nil
}

// setStrings is a set (or list) of strings' elements; nil for null.
func setStrings(v cty.Value) []string {
	if v.IsNull() || !v.CanIterateElements() {
		return nil
	}
	var out []string
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		if !e.IsNull() {
			out = append(out, e.AsString())
		}
	}
	sort.Strings(out)
	return out
}

// stringMap is a map of strings; nil for null.
func stringMap(v cty.Value) map[string]string {
	if v.IsNull() || !v.CanIterateElements() {
		return nil
	}
	out := map[string]string{}
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		if !e.IsNull() {
			out[k.AsString()] = e.AsString()
		}
	}
	return out
}

// splitEnvList splits an environment variable holding a list of paths
// (colon-separated, as the AWS SDK reads them); nil when empty.
func splitEnvList(v string) []string {
	if v == "" {
		return nil
	}
	return strings.Split(v, ":")
}
