package cliconfig

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/getproviders"
)

// docExample is the provider_installation example of Terraform's CLI
// configuration documentation, in the shape users copy.
const docExample = `plugin_cache_dir = "$HOME/.terraform.d/plugin-cache"
disable_checkpoint = true

provider_installation {
  dev_overrides {
    "hashicorp/null" = "/home/developer/tmp/terraform-null"
  }
  filesystem_mirror {
    path    = "/usr/share/terraform/providers"
    include = ["example.com/*/*"]
  }
  network_mirror {
    url = "https://terraform.example.com/providers/"
    exclude = ["example.com/*/*"]
  }
  direct {
    exclude = ["example.com/*/*"]
  }
}

credentials "app.terraform.io" {
  token = "ignored"
}
`

func TestParse(t *testing.T) {
	expand := func(s string) string { return s + "!" }
	exampleCom := []getproviders.Pattern{{Hostname: "example.com", Namespace: "*", Type: "*"}}
	tests := map[string]struct {
		reason string
		src    string
		want   *Config
	}{
		"doc example": {
			reason: "every method, quoted dev_overrides keys, credentials kept, other settings ignored",
			src:    docExample,
			want: &Config{
				PluginCacheDir: "$HOME/.terraform.d/plugin-cache!",
				Credentials:    map[string]string{"app.terraform.io": "ignored"},
				ProviderInstallation: &ProviderInstallation{
					DevOverrides: map[addrs.Provider]string{addrs.NewDefaultProvider("null"): "/home/developer/tmp/terraform-null"},
					Methods: []getproviders.Method{
						{Kind: getproviders.FilesystemMirror, Dir: "/usr/share/terraform/providers", Include: exampleCom},
						{Kind: getproviders.NetworkMirror, URL: "https://terraform.example.com/providers/", Exclude: exampleCom},
						{Kind: getproviders.Direct, Exclude: exampleCom},
					},
				},
			},
		},
		"json": {
			reason: "JSON is recognised by its leading brace",
			src:    `{"plugin_cache_may_break_dependency_lock_file": true, "provider_installation": {"dev_overrides": {"example.com/test/foo": "/dev/foo/"}, "filesystem_mirror": {"path": "m"}}}`,
			want: &Config{
				PluginCacheMayBreakDependencyLockFile: true,
				ProviderInstallation: &ProviderInstallation{
					DevOverrides: map[addrs.Provider]string{{Hostname: "example.com", Namespace: "test", Type: "foo"}: "/dev/foo"},
					Methods:      []getproviders.Method{{Kind: getproviders.FilesystemMirror, Dir: "m"}},
				},
			},
		},
		"json arrays": {
			reason: "the array form Terraform 1.5.7 accepts in JSON",
			src:    `{"provider_installation": [{"filesystem_mirror": [{"path": "/m", "include": ["example.com/*/*"]}]}]}`,
			want: &Config{ProviderInstallation: &ProviderInstallation{
				DevOverrides: map[addrs.Provider]string{},
				Methods:      []getproviders.Method{{Kind: getproviders.FilesystemMirror, Dir: "/m", Include: exampleCom}},
			}},
		},
		"empty": {reason: "no block means implied methods", src: "", want: &Config{}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, diags := Parse([]byte(tc.src), "test.tfrc", expand)
			if diags.HasErrors() {
				t.Fatalf("%s: %s", tc.reason, diags)
			}
			got.Files = nil
			if got.ProviderInstallation != nil {
				got.ProviderInstallation.DeclRange = hcl.Range{}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s: -want +got\n%s", tc.reason, diff)
			}
		})
	}
}

func TestParseDiagnostics(t *testing.T) {
	tests := map[string]struct {
		reason  string
		src     string
		summary string
		start   hcl.Pos
	}{
		"syntax":         {reason: "broken syntax", src: "plugin_cache_dir = \n", summary: "Invalid expression", start: hcl.Pos{Line: 1, Column: 20, Byte: 19}},
		"unknown method": {reason: "only the four methods", src: "provider_installation {\n  ftp {}\n}\n", summary: "Unsupported block type", start: hcl.Pos{Line: 2, Column: 3, Byte: 26}},
		"missing path":   {reason: "a mirror needs a path", src: "provider_installation {\n  filesystem_mirror {}\n}\n", summary: "Missing required argument", start: hcl.Pos{Line: 2, Column: 21, Byte: 44}},
		"missing url":    {reason: "a network mirror needs a url", src: "provider_installation {\n  network_mirror {}\n}\n", summary: "Missing required argument", start: hcl.Pos{Line: 2, Column: 18, Byte: 41}},
		"label":          {reason: "methods take no labels", src: "provider_installation {\n  direct \"x\" {}\n}\n", summary: "Extraneous label for direct", start: hcl.Pos{Line: 2, Column: 10, Byte: 33}},
		"attribute":      {reason: "only blocks inside", src: "provider_installation {\n  path = \"x\"\n}\n", summary: "Unsupported argument", start: hcl.Pos{Line: 2, Column: 3, Byte: 26}},
		"dev late":       {reason: "dev_overrides comes first", src: "provider_installation {\n  direct {}\n  dev_overrides {}\n}\n", summary: "Invalid provider_installation method block", start: hcl.Pos{Line: 3, Column: 3, Byte: 38}},
		"bad override":   {reason: "keys are provider sources", src: "provider_installation {\n  dev_overrides {\n    \"a/b/c/d\" = \"/x\"\n  }\n}\n", summary: "Invalid provider installation dev overrides", start: hcl.Pos{Line: 3, Column: 5, Byte: 46}},
		"bad pattern":    {reason: "include entries are patterns", src: "provider_installation {\n  direct {\n    include = [\"a/b/c/d\"]\n  }\n}\n", summary: "Invalid provider_installation method block", start: hcl.Pos{Line: 3, Column: 15, Byte: 49}},
		"two blocks":     {reason: "one provider_installation", src: "provider_installation {\n}\nprovider_installation {\n}\n", summary: "Duplicate provider_installation block", start: hcl.Pos{Line: 3, Column: 1, Byte: 26}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, diags := Parse([]byte(tc.src), "test.tfrc", nil)
			if !diags.HasErrors() {
				t.Fatalf("%s: no error", tc.reason)
			}
			d := diags[0]
			if d.Summary != tc.summary || d.Subject == nil || d.Subject.Start != tc.start {
				t.Errorf("%s: got %q at %v, want %q at %v", tc.reason, d.Summary, d.Subject, tc.summary, tc.start)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(docExample))
	f.Fuzz(func(t *testing.T, src []byte) {
		Parse(src, "fuzz.tfrc", nil)
	})
}
