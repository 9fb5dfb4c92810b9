package testfiles

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hashicorp/hcl/v2"
)

// TestParseRunSettings: state_key, parallel (the run's, else the test
// block's) and the providers mapping, and the mistakes in them.
func TestParseRunSettings(t *testing.T) {
	type run struct {
		StateKey  string
		Parallel  bool
		Providers []ProviderMapping
	}
	tests := map[string]struct {
		reason  string
		src     string
		want    []run
		summary string // the first error's, "" for none
	}{
		"defaults": {
			reason: "without the arguments: no key, not parallel, providers nil (every block passed under its own name)",
			src:    `run "a" {}`,
			want:   []run{{}},
		},
		"state key and parallel": {
			reason: "a run's own settings",
			src:    "run \"a\" {\n state_key = \"k\"\n parallel = true\n}\n",
			want:   []run{{StateKey: "k", Parallel: true}},
		},
		"test block default": {
			reason: "the test block's parallel is the default; a run's false wins",
			src:    "test {\n parallel = true\n}\nrun \"a\" {}\nrun \"b\" { parallel = false }\n",
			want:   []run{{Parallel: true}, {}},
		},
		"providers": {
			reason: "module configurations to the file's, aliases on either side",
			src:    "provider \"aws\" { alias = \"west\" }\nmock_provider \"aws\" {}\nrun \"a\" {\n providers = {\n  aws = aws.west\n  aws.east = aws\n }\n}\n",
			want: []run{{Providers: []ProviderMapping{
				{InModule: ProviderRef{Name: "aws"}, InFile: ProviderRef{Name: "aws", Alias: "west"}},
				{InModule: ProviderRef{Name: "aws", Alias: "east"}, InFile: ProviderRef{Name: "aws"}},
			}}},
		},
		"empty providers": {
			reason: "an empty map passes nothing, which is not the same as no argument",
			src:    `run "a" { providers = {} }`,
			want:   []run{{Providers: []ProviderMapping{}}},
		},
		"quoted provider": {
			reason:  "references are written without quotes",
			src:     `run "a" { providers = { aws = "aws" } }`,
			summary: "Invalid provider configuration reference",
		},
		"string parallel": {
			reason:  "parallel is a bool",
			src:     `run "a" { parallel = "yes" }`,
			summary: "Invalid value",
		},
		"two test blocks": {
			reason:  "a file has at most one test block",
			src:     "test {}\ntest {}\nrun \"a\" {}\n",
			summary: "Duplicate \"test\" block",
		},
		"duplicate configuration": {
			reason:  "a provider and a mock_provider block with the same name and alias",
			src:     "provider \"aws\" {}\nmock_provider \"aws\" {}\nrun \"a\" {}\n",
			summary: "Duplicate provider configuration",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f, ds := Parse("a.tftest.hcl", []byte(tc.src))
			if tc.summary != "" {
				if !ds.HasErrors() || ds[0].Summary != tc.summary {
					t.Fatalf("%s: diagnostics %v, want %q", tc.reason, ds, tc.summary)
				}
				return
			}
			if ds.HasErrors() {
				t.Fatalf("%s: %v", tc.reason, ds)
			}
			var got []run
			for _, r := range f.Runs {
				got = append(got, run{StateKey: r.StateKey, Parallel: r.Parallel, Providers: r.Providers})
			}
			if diff := cmp.Diff(tc.want, got, cmpopts.IgnoreTypes(hcl.Range{}), cmpopts.SortSlices(func(a, b ProviderMapping) bool {
				return a.InModule.String() < b.InModule.String()
			})); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}
