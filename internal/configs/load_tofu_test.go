package configs

import (
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLoadFilesTofuPrecedence checks OpenTofu 1.8's rule: a .tofu or
// .tofu.json file hides the .tf or .tf.json file of the same name in the
// same directory, and is read like one otherwise (override files
// included). The hidden files are invalid HCL, so reading one would show
// up as a diagnostic.
func TestLoadFilesTofuPrecedence(t *testing.T) {
	cases := map[string]struct {
		files       map[string]string
		wantSources []string
		wantVars    []string
	}{
		"tofu hides tf": {
			files: map[string]string{
				"main.tf":   `broken {{{`,
				"main.tofu": `variable "a" {}`,
			},
			wantSources: []string{"main.tofu"},
			wantVars:    []string{"a"},
		},
		"tofu.json hides tf.json only": {
			files: map[string]string{
				"vars.tf.json":   `broken {{{`,
				"vars.tofu.json": `{"variable": {"b": {}}}`,
				"vars.tf":        `variable "c" {}`,
			},
			wantSources: []string{"vars.tf", "vars.tofu.json"},
			wantVars:    []string{"b", "c"},
		},
		"tofu does not hide tf.json": {
			files: map[string]string{
				"main.tofu":    `variable "a" {}`,
				"main.tf.json": `{"variable": {"b": {}}}`,
			},
			wantSources: []string{"main.tf.json", "main.tofu"},
			wantVars:    []string{"a", "b"},
		},
		"other names stay": {
			files: map[string]string{
				"a.tf":   `variable "a" {}`,
				"b.tofu": `variable "b" {}`,
			},
			wantSources: []string{"a.tf", "b.tofu"},
			wantVars:    []string{"a", "b"},
		},
		"override tofu": {
			files: map[string]string{
				"main.tf":           `variable "a" { default = "tf" }`,
				"override.tf":       `broken {{{`,
				"override.tofu":     `variable "a" { default = "tofu" }`,
				"x_override.tofu":   `variable "a" { description = "d" }`,
				".hidden.tofu":      `broken {{{`,
				"main.tofu~":        `broken {{{`,
				"notes.tofutest":    `broken {{{`,
				"main.tofutest.hcl": `broken {{{`,
			},
			wantSources: []string{"main.tf", "override.tofu", "x_override.tofu"},
			wantVars:    []string{"a"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m, ds := loadStrings(tc.files)
			if len(ds) > 0 {
				t.Fatalf("unexpected diagnostics:\n%s", ds.Error())
			}
			if diff := cmp.Diff(tc.wantSources, slices.Sorted(maps.Keys(m.Sources))); diff != "" {
				t.Errorf("Sources -want +got:\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantVars, slices.Sorted(maps.Keys(m.Variables))); diff != "" {
				t.Errorf("Variables -want +got:\n%s", diff)
			}
		})
	}
}
