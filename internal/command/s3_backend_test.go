package command

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-iac/cairn/internal/backends/s3"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
)

// TestDecodeS3 checks backend "s3"'s arguments, OpenTofu's environment
// fallbacks and checks, deprecated names, and that every diagnostic
// points at its argument without quoting a secret.
func TestDecodeS3(t *testing.T) {
	const secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	for name, tc := range map[string]struct {
		block string
		env   map[string]string
		want  s3.Config
		// wantDiags are "severity summary@line:col" of the diagnostics
		// expected (line 2 is the backend line).
		wantDiags []string
	}{
		"arguments": {
			block: `backend "s3" {
    bucket               = "b"
    key                  = "k/terraform.tfstate"
    region               = "eu-west-3"
    workspace_key_prefix = "team"
    encrypt              = true
    kms_key_id           = "arn:aws:kms:eu-west-3:1:key/x"
    acl                  = "private"
    endpoints            = { s3 = "http://127.0.0.1:9000", dynamodb = "ddb.local" }
    use_path_style       = true
    access_key           = "AK"
    secret_key           = "` + secret + `"
    profile              = "p"
    shared_config_files  = ["/c2", "/c1"]
    skip_credentials_validation = true
    skip_region_validation      = true
    skip_requesting_account_id  = true
    skip_metadata_api_check     = true
    skip_s3_checksum            = true
    use_lockfile         = true
    dynamodb_table       = "locks"
    max_retries          = 3
    assume_role = {
      role_arn     = "arn:aws:iam::1:role/r"
      duration     = "1h"
      session_name = "s"
      tags         = { team = "a" }
    }
  }`,
			env: map[string]string{"AWS_ACCESS_KEY_ID": "env", "AWS_ENDPOINT_URL_S3": "http://env", "CAIRN_S3_RETRY_TIMEOUT": "2s"},
			want: s3.Config{
				Bucket: "b", Key: "k/terraform.tfstate", Region: "eu-west-3", WorkspaceKeyPrefix: "team",
				Encrypt: true, KMSKeyID: "arn:aws:kms:eu-west-3:1:key/x", ACL: "private",
				S3Endpoint: "http://127.0.0.1:9000", DynamoDBEndpoint: "https://ddb.local", UsePathStyle: true,
				AccessKey: "AK", SecretKey: secret, Profile: "p", SharedConfigFiles: []string{"/c1", "/c2"},
				SkipCredentialsValidation: true, SkipRegionValidation: true, SkipRequestingAccountID: true,
				SkipMetadataAPICheck: true, SkipS3Checksum: true, UseLockfile: true, DynamoDBTable: "locks",
				MaxRetries: 3, RetryFor: 2 * time.Second,
				AssumeRole: &s3.AssumeRole{RoleARN: "arn:aws:iam::1:role/r", Duration: time.Hour, SessionName: "s", Tags: map[string]string{"team": "a"}},
			},
		},
		"environment": {
			block: `backend "s3" {
    bucket = "b"
    key    = "k"
  }`,
			env: map[string]string{
				"AWS_DEFAULT_REGION": "us-west-2", "AWS_ACCESS_KEY_ID": "AK", "AWS_SECRET_ACCESS_KEY": secret,
				"AWS_SESSION_TOKEN": "tok", "AWS_PROFILE": "prof", "AWS_S3_ENDPOINT": "http://old",
				"AWS_ENDPOINT_URL_DYNAMODB": "http://ddb", "AWS_SHARED_CREDENTIALS_FILE": "/a:/b",
			},
			want: s3.Config{Bucket: "b", Key: "k", Region: "us-west-2", AccessKey: "AK", SecretKey: secret, Token: "tok",
				Profile: "prof", S3Endpoint: "http://old", DynamoDBEndpoint: "http://ddb", SharedCredentialsFiles: []string{"/a", "/b"}},
		},
		"deprecated names": {
			block: `backend "s3" {
    bucket           = "b"
    key              = "k"
    region           = "us-east-1"
    endpoint         = "http://127.0.0.1:1"
    force_path_style = true
    role_arn         = "arn:aws:iam::1:role/r"
  }`,
			want: s3.Config{Bucket: "b", Key: "k", Region: "us-east-1", S3Endpoint: "http://127.0.0.1:1", UsePathStyle: true,
				AssumeRole: &s3.AssumeRole{RoleARN: "arn:aws:iam::1:role/r"}},
			wantDiags: []string{"W Deprecated Parameter@6:24", "W Deprecated Parameter@7:24", "W Deprecated Parameters@8:24"},
		},
		"missing everything": {
			block:     `backend "s3" {}`,
			wantDiags: []string{"E Invalid bucket value@2:11", "E Invalid key value@2:11", "E Missing region value@2:11"},
		},
		"key slashes": {
			block: `backend "s3" {
    bucket = "b"
    key    = "/k/"
    region = "us-east-1"
    workspace_key_prefix = "envs/"
  }`,
			wantDiags: []string{"E Invalid key value@4:14", "E Invalid workspace_key_prefix value@6:28"},
		},
		"bad region": {
			block: `backend "s3" {
    bucket = "b"
    key    = "k"
    region = "mars-1"
  }`,
			wantDiags: []string{"E Invalid region value@5:14"},
		},
		"unknown argument": {
			block: `backend "s3" {
    bucket = "b"
    key    = "k"
    region = "us-east-1"
    table  = "x"
  }`,
			wantDiags: []string{"E Unsupported backend argument@6:5"},
		},
		"wrong type": {
			block: `backend "s3" {
    bucket  = "b"
    key     = "k"
    region  = "us-east-1"
    encrypt = "maybe"
  }`,
			wantDiags: []string{"E Invalid backend encrypt@6:15"},
		},
		"endpoint twice": {
			block: `backend "s3" {
    bucket    = "b"
    key       = "k"
    region    = "us-east-1"
    endpoints = { s3 = "http://a" }
    endpoint  = "http://b"
  }`,
			wantDiags: []string{"W Deprecated Parameter@7:17", "E Invalid Attribute Combination@7:17"},
		},
		"bad customer key": {
			block: `backend "s3" {
    bucket           = "b"
    key              = "k"
    region           = "us-east-1"
    sse_customer_key = "` + secret + `"
  }`,
			wantDiags: []string{"E Invalid sse_customer_key value@6:24"},
		},
		"customer key and kms": {
			block: `backend "s3" {
    bucket           = "b"
    key              = "k"
    region           = "us-east-1"
    kms_key_id       = "k1"
    sse_customer_key = "` + secret + `"
  }`,
			wantDiags: []string{"E Invalid encryption configuration@6:24"},
		},
		"assume_role without role": {
			block: `backend "s3" {
    bucket      = "b"
    key         = "k"
    region      = "us-east-1"
    assume_role = { role_arn = "", duration = "1m" }
  }`,
			wantDiags: []string{"E Missing Required Value@6:19", "E Invalid Duration@6:19"},
		},
		"not implemented": {
			block: `backend "s3" {
    bucket              = "b"
    key                 = "k"
    region              = "us-east-1"
    allowed_account_ids = ["1"]
  }`,
			wantDiags: []string{"E Unsupported s3 backend argument@6:5"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			src := fmt.Sprintf("terraform {\n  %s\n}\n", tc.block)
			mod, ds := configs.LoadFiles(t.TempDir(), map[string][]byte{"main.tf": []byte(src)})
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			m := &Meta{Streams: Streams{Getenv: func(k string) string { return tc.env[k] }}}
			args, ds := decodeBackendArgs(mod.Backend, nil)
			got, sds := m.decodeS3(args)
			ds = ds.Append(sds)
			if diff := cmp.Diff(tc.wantDiags, diagPositions(ds)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			for _, d := range ds {
				if strings.Contains(d.Summary+d.Detail, secret) {
					t.Errorf("a diagnostic quotes the secret: %s: %s", d.Summary, d.Detail)
				}
			}
			if tc.wantDiags == nil {
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("config (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// diagPositions is "severity summary@line:col" of each diagnostic.
func diagPositions(ds diags.Diagnostics) []string {
	var out []string
	for _, d := range ds {
		at := "-"
		if d.Subject != nil {
			at = fmt.Sprintf("%d:%d", d.Subject.Start.Line, d.Subject.Start.Column)
		}
		out = append(out, fmt.Sprintf("%c %s@%s", d.Severity, d.Summary, at))
	}
	return out
}
