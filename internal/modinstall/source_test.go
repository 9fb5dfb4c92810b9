package modinstall

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseSource checks module source addresses normalise as Terraform
// 1.5.7 normalises them (the form modules.json records).
func TestParseSource(t *testing.T) {
	cases := map[string]struct {
		reason  string
		raw     string
		want    Source
		wantStr string
		wantErr string
	}{
		"Local": {
			reason: "a local path is cleaned and keeps its ./ prefix",
			raw:    "./modules//net/", want: Source{Kind: Local, Package: "./modules/net"}, wantStr: "./modules/net",
		},
		"LocalParent": {
			reason: "a path up from the module keeps ../",
			raw:    "../shared/./x", want: Source{Kind: Local, Package: "../shared/x"}, wantStr: "../shared/x",
		},
		"LocalBackslash": {
			reason: "Windows separators are read as slashes",
			raw:    `.\modules\net`, want: Source{Kind: Local, Package: "./modules/net"}, wantStr: "./modules/net",
		},
		"Registry": {
			reason: "three parts are a module on the public registry",
			raw:    "hashicorp/consul/aws", want: Source{Kind: Registry, Package: "registry.terraform.io/hashicorp/consul/aws"},
			wantStr: "registry.terraform.io/hashicorp/consul/aws",
		},
		"RegistryHostSubdir": {
			reason: "a registry host and a subdirectory",
			raw:    "example.com/org/net/aws//modules/sub", want: Source{Kind: Registry, Package: "example.com/org/net/aws", Subdir: "modules/sub"},
			wantStr: "example.com/org/net/aws//modules/sub",
		},
		"GitHubShorthand": {
			reason: "github.com/org/repo is a git repository over HTTPS",
			raw:    "github.com/org/repo", want: Source{Kind: Remote, Package: "git::https://github.com/org/repo.git"},
			wantStr: "git::https://github.com/org/repo.git",
		},
		"GitHubSubdirRef": {
			reason:  "the subdirectory goes before the query",
			raw:     "github.com/org/repo//modules/net?ref=v1.2.0",
			want:    Source{Kind: Remote, Package: "git::https://github.com/org/repo.git?ref=v1.2.0", Subdir: "modules/net"},
			wantStr: "git::https://github.com/org/repo.git//modules/net?ref=v1.2.0",
		},
		"GitSSHShorthand": {
			reason:  "scp-like git addresses become ssh:// URLs",
			raw:     "git@github.com:org/repo.git?ref=main",
			want:    Source{Kind: Remote, Package: "git::ssh://git@github.com/org/repo.git?ref=main"},
			wantStr: "git::ssh://git@github.com/org/repo.git?ref=main",
		},
		"GitForced": {
			reason:  "a forced git:: address is kept as written",
			raw:     "git::https://example.com/net.git?ref=v1&depth=1",
			want:    Source{Kind: Remote, Package: "git::https://example.com/net.git?ref=v1&depth=1"},
			wantStr: "git::https://example.com/net.git?ref=v1&depth=1",
		},
		"HTTPArchive": {
			reason: "an HTTPS URL is fetched by the HTTP getter",
			raw:    "https://example.com/net.tar.gz//sub", want: Source{Kind: Remote, Package: "https://example.com/net.tar.gz", Subdir: "sub"},
			wantStr: "https://example.com/net.tar.gz//sub",
		},
		"S3Host": {
			reason: "an S3 bucket host becomes an s3:: address",
			raw:    "bucket.s3.amazonaws.com/net.zip", want: Source{Kind: Remote, Package: "s3::https://s3.amazonaws.com/bucket/net.zip"},
			wantStr: "s3::https://s3.amazonaws.com/bucket/net.zip",
		},
		"AbsolutePath": {
			reason: "an absolute path is a package to copy, not a local module",
			raw:    "/srv/modules/net", want: Source{Kind: Remote, Package: "file:///srv/modules/net"}, wantStr: "file:///srv/modules/net",
		},
		"RelativeWithoutDot": {
			reason: "a relative path without ./ is refused with a hint",
			raw:    "modules/net", wantErr: "could not be resolved",
		},
		"SubdirEscapes": {
			reason: "a subdirectory may not leave the package",
			raw:    "git::https://example.com/net.git//../other", wantErr: "leads outside of the module package",
		},
		"Empty": {
			reason: "an empty source is no address",
			raw:    "", wantErr: "must not be empty",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := ParseSource(tc.raw)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("%s: error = %v, want one containing %q", tc.reason, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
			if got.String() != tc.wantStr {
				t.Errorf("%s: String() = %q, want %q", tc.reason, got.String(), tc.wantStr)
			}
		})
	}
}

func TestParseSourceRelativeError(t *testing.T) {
	_, err := ParseSource("modules/net")
	var rel *ErrMaybeRelativePath
	if !errors.As(err, &rel) || rel.Addr != "modules/net" {
		t.Fatalf("error = %#v, want ErrMaybeRelativePath", err)
	}
}
