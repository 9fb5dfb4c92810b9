package localproviders

import (
	"path/filepath"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/builtin"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/testproviders"
)

func TestAdd(t *testing.T) {
	random, err := addrs.ParseProviderSource("hashicorp/random")
	if err != nil {
		t.Fatal(err)
	}
	needsRandom := `terraform {
  required_providers {
    random = { source = "hashicorp/random" }
  }
}
resource "random_pet" "p" {}
`
	bin, built := testproviders.Binary("random")
	cases := map[string]struct {
		reason   string
		src      string
		settings Settings
		skip     bool
		want     []addrs.Provider
		severity []diags.Severity
	}{
		"built in only": {
			reason: "terraform_data needs no plugin, so nothing is read",
			src:    `resource "terraform_data" "a" {}`,
		},
		"not installed": {
			reason:   "no lock file and no package: one error naming the provider",
			src:      needsRandom,
			settings: Settings{ConfigDir: t.TempDir(), ProvidersDir: t.TempDir()},
			severity: []diags.Severity{diags.Error},
		},
		"dev override": {
			reason:   "a dev_overrides directory is used as it is, with Terraform's warning",
			src:      needsRandom,
			skip:     !built,
			settings: Settings{ConfigDir: t.TempDir(), DevOverrides: map[addrs.Provider]string{random: filepath.Dir(bin)}},
			want:     []addrs.Provider{random},
			severity: []diags.Severity{diags.Warning},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if tc.skip {
				t.Skip("test providers not built (scripts/build-test-providers.sh)")
			}
			cfg, ds := configs.LoadFiles(".", map[string][]byte{"main.tf": []byte(tc.src)})
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			reg := providers.Registry{builtin.TerraformProviderAddr: nil}
			ds = Add(reg, cfg, tc.settings)
			var sev []diags.Severity
			for _, d := range ds {
				sev = append(sev, d.Severity)
			}
			if len(sev) != len(tc.severity) || (len(sev) > 0 && sev[0] != tc.severity[0]) {
				t.Errorf("%s: diagnostics %v, want severities %v", tc.reason, ds, tc.severity)
			}
			for _, p := range tc.want {
				if reg[p] == nil {
					t.Errorf("%s: no factory for %s", tc.reason, p)
				}
			}
		})
	}
}
