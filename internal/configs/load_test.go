package configs

import (
	"flag"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

var nilValue = cty.NilVal

// TestLoadDirGolden loads testdata directories and compares a rendering of
// the module with a golden file. The directories also hold files LoadDir
// must skip (hidden files, editor backups, other extensions, a
// subdirectory); each of those is invalid HCL, so reading one would show up
// as a diagnostic.
func TestLoadDirGolden(t *testing.T) {
	cases := map[string]struct {
		reason string
		dir    string
	}{
		"Basic": {
			reason: "A small module spread over native and JSON files.",
			dir:    "basic",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("testdata", tc.dir)
			m, ds := LoadDir(dir)
			if len(ds) > 0 {
				t.Fatalf("%s\nunexpected diagnostics:\n%s", tc.reason, ds.Error())
			}
			if m.SourceDir != dir {
				t.Errorf("SourceDir: want %q, got %q", dir, m.SourceDir)
			}
			got := dumpModule(m)
			golden := filepath.Join("testdata", tc.dir+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("reading golden file (run with -update to create it): %s", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestLoadDirSources checks that Sources holds each loaded file's bytes
// under the name used in ranges, and that symbolic links to files are
// followed.
func TestLoadDirSources(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("b.tf", `variable "b" {}`)
	write("real.hcl", `variable "linked" {}`)
	if err := os.Symlink(filepath.Join(dir, "real.hcl"), filepath.Join(dir, "a.tf")); err != nil {
		t.Skipf("cannot create symbolic links here: %s", err)
	}
	m, ds := LoadDir(dir)
	if len(ds) > 0 {
		t.Fatalf("unexpected diagnostics:\n%s", ds.Error())
	}
	wantSources := map[string]string{"a.tf": `variable "linked" {}`, "b.tf": `variable "b" {}`}
	gotSources := map[string]string{}
	for k, v := range m.Sources {
		gotSources[k] = string(v)
	}
	if diff := cmp.Diff(wantSources, gotSources); diff != "" {
		t.Errorf("Sources -want +got:\n%s", diff)
	}
	if got := m.Variables["linked"].DeclRange.Filename; got != "a.tf" {
		t.Errorf("range file name: want a.tf, got %q", got)
	}
}

func TestLoadDirMissing(t *testing.T) {
	m, ds := LoadDir(filepath.Join(t.TempDir(), "nope"))
	want := []diagWant{{Severity: 'E', Summary: "Failed to read module directory"}}
	if diff := cmp.Diff(want, summarizeDiags(ds)); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
	if m == nil || m.Variables == nil {
		t.Errorf("LoadDir must return an empty module, not nil or nil maps")
	}
}

// TestLoadFilesNames checks which in-memory keys are loaded: the ones
// LoadDir would read from a directory.
func TestLoadFilesNames(t *testing.T) {
	m, ds := loadStrings(map[string]string{
		"main.tf":          `variable "a" {}`,
		"extra.tf.json":    `{"variable": {"b": {}}}`,
		"sub/nested.tf":    `broken {{{`,
		".hidden.tf":       `broken {{{`,
		"main.tf~":         `broken {{{`,
		"terraform.tfvars": `broken {{{`,
	})
	if len(ds) > 0 {
		t.Fatalf("unexpected diagnostics:\n%s", ds.Error())
	}
	if diff := cmp.Diff([]string{"extra.tf.json", "main.tf"}, slices.Sorted(maps.Keys(m.Sources))); diff != "" {
		t.Errorf("Sources -want +got:\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a", "b"}, slices.Sorted(maps.Keys(m.Variables))); diff != "" {
		t.Errorf("Variables -want +got:\n%s", diff)
	}
}

// TestLoadFilesEmpty checks that an empty module is valid and fully
// initialised, so callers need no nil checks.
func TestLoadFilesEmpty(t *testing.T) {
	m, ds := LoadFiles("x", nil)
	if len(ds) > 0 {
		t.Fatalf("unexpected diagnostics:\n%s", ds.Error())
	}
	if m.Sources == nil || m.RequiredProviders == nil || m.ProviderConfigs == nil || m.Locals == nil ||
		m.Outputs == nil || m.ManagedResources == nil || m.DataResources == nil {
		t.Errorf("nil map in empty module: %+v", m)
	}
}
