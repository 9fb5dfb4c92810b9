package command

import "github.com/zclconf/go-cty/cty"

// s3Attrs are backend "s3"'s arguments with the types OpenTofu 1.12.6's
// schema gives them, deprecated names included: the record in
// .terraform/terraform.tfstate and its hash cover exactly these, so that
// OpenTofu and Cairn each accept the other's init. endpoints and
// assume_role are nested attributes (endpoints = { s3 = "..." }), as in
// OpenTofu and Terraform 1.6+.
func s3Attrs() map[string]cty.Type {
	str, boolean, num := cty.String, cty.Bool, cty.Number
	strSet, strMap := cty.Set(cty.String), cty.Map(cty.String)
	optional := func(attrs map[string]cty.Type, required ...string) cty.Type {
		var opt []string
	next:
		for name := range attrs {
			for _, r := range required {
				if r == name {
					continue next
				}
			}
			opt = append(opt, name)
		}
		return cty.ObjectWithOptionalAttrs(attrs, opt)
	}
	return map[string]cty.Type{
		"bucket": str, "key": str, "region": str,
		"endpoints": optional(map[string]cty.Type{"s3": str, "iam": str, "sts": str, "dynamodb": str}),
		// Deprecated for endpoints.
		"dynamodb_endpoint": str, "endpoint": str, "iam_endpoint": str, "sts_endpoint": str,
		"sts_region": str, "encrypt": boolean, "acl": str, "state_tags": strMap, "lock_tags": strMap,
		"access_key": str, "secret_key": str, "kms_key_id": str, "dynamodb_table": str,
		"profile": str, "shared_credentials_file": str, "shared_credentials_files": strSet,
		"shared_config_files": strSet, "token": str,
		"skip_credentials_validation": boolean, "skip_metadata_api_check": boolean,
		"skip_region_validation": boolean, "skip_requesting_account_id": boolean,
		"sse_customer_key": str,
		// Deprecated for assume_role.
		"role_arn": str, "session_name": str, "external_id": str, "assume_role_duration_seconds": num,
		"assume_role_policy": str, "assume_role_policy_arns": strSet, "assume_role_tags": strMap,
		"assume_role_transitive_tag_keys": strSet,
		"workspace_key_prefix":            str, "force_path_style": boolean, "use_path_style": boolean,
		"retry_mode": str, "max_retries": num, "custom_ca_bundle": str,
		"ec2_metadata_service_endpoint": str, "ec2_metadata_service_endpoint_mode": str,
		"assume_role": optional(map[string]cty.Type{
			"role_arn": str, "duration": str, "external_id": str, "policy": str, "policy_arns": strSet,
			"session_name": str, "tags": strMap, "transitive_tag_keys": strSet,
		}, "role_arn"),
		"assume_role_with_web_identity": optional(map[string]cty.Type{
			"role_arn": str, "web_identity_token": str, "web_identity_token_file": str,
			"session_name": str, "policy": str, "policy_arns": strSet, "duration": str,
		}),
		"forbidden_account_ids": strSet, "allowed_account_ids": strSet,
		"http_proxy": str, "https_proxy": str, "no_proxy": str, "insecure": boolean,
		"use_dualstack_endpoint": boolean, "use_fips_endpoint": boolean,
		"skip_s3_checksum": boolean, "use_lockfile": boolean,
	}
}
