package configs

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLoadInstalled checks that non-local module calls load from where
// modules.json says they were installed, with Terraform's diagnostics,
// at the module block, when they were not or the configuration changed.
func TestLoadInstalled(t *testing.T) {
	const call = "module \"net\" {\n  source  = \"git::https://example.com/net.git?ref=v1\"\n  name    = \"a\"\n}\n"
	const callRegistry = "module \"net\" {\n  source  = \"example.com/org/net/aws\"\n  version = \"~> 1.0\"\n  name    = \"a\"\n}\n"
	installed := func(source, version string) *InstalledModules {
		return &InstalledModules{Modules: map[string]InstalledModule{
			"net":       {Source: source, Version: version, Dir: ".terraform/modules/net"},
			"net.inner": {Source: "./inner", Dir: ".terraform/modules/net/inner"},
		}}
	}
	child := map[string]string{
		".terraform/modules/net/main.tf":       "variable \"name\" {}\nmodule \"inner\" { source = \"./inner\" }\n",
		".terraform/modules/net/inner/main.tf": "resource \"terraform_data\" \"x\" {}\n",
	}
	type want = []diagWant
	cases := map[string]struct {
		reason string
		root   string
		inst   *InstalledModules
		want   want
	}{
		"Installed": {
			reason: "the recorded directory is loaded, and local calls inside it resolve below it",
			root:   call, inst: installed("git::https://example.com/net.git?ref=v1", ""),
		},
		"NoManifest": {
			reason: "without a manifest a remote call is not installed",
			root:   call,
			want:   want{errAt("Module not installed", "main.tf:1:1")},
		},
		"NotRecorded": {
			reason: "a call the manifest does not list is not installed",
			root:   call, inst: &InstalledModules{},
			want: want{errAt("Module not installed", "main.tf:1:1")},
		},
		"SourceChanged": {
			reason: "a source other than the recorded one needs init again, pointed at the source",
			root:   call, inst: installed("git::https://example.com/net.git?ref=v0", ""),
			want: want{errAt("Module source has changed", "main.tf:2:13")},
		},
		"RegistryInstalled": {
			reason: "a registry version meeting the constraint loads",
			root:   callRegistry, inst: installed("example.com/org/net/aws", "1.2.0"),
		},
		"RegistryVersionChanged": {
			reason: "an installed version the constraint no longer allows needs init again",
			root:   callRegistry, inst: installed("example.com/org/net/aws", "2.0.0"),
			want: want{errAt("Module version requirements have changed", "main.tf:2:13")},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			files := map[string][]byte{"main.tf": []byte(tc.root)}
			for k, v := range child {
				files[k] = []byte(v)
			}
			mod, ds := LoadFilesInstalled(".", files, tc.inst)
			if diff := cmp.Diff(tc.want, summarizeDiags(ds)); diff != "" {
				t.Fatalf("%s\n-want +got:\n%s\n%s", tc.reason, diff, ds.Error())
			}
			if len(tc.want) > 0 {
				return
			}
			inner := mod.ModuleCalls["net"].Module.ModuleCalls["inner"].Module
			if inner == nil || inner.Dir != ".terraform/modules/net/inner" || !strings.HasSuffix(inner.Path.String(), "module.inner") {
				t.Fatalf("%s: inner module = %+v", tc.reason, inner)
			}
		})
	}
}
