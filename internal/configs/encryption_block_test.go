package configs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEncryptionBlock(t *testing.T) {
	cases := map[string]struct {
		reason    string
		files     map[string]string
		wantBlock bool
		wantDiags []diagWant
	}{
		"absent": {
			reason: "no encryption block, no Encryption",
			files:  map[string]string{"main.tf": `terraform {}`},
		},
		"kept": {
			reason:    "the block is kept undecoded for the command layer",
			files:     map[string]string{"main.tf": "terraform {\n  encryption {\n    state { method = method.aes_gcm.x }\n  }\n}\n"},
			wantBlock: true,
		},
		"duplicate": {
			reason:    "two terraform blocks may not both configure encryption",
			files:     map[string]string{"a.tf": "terraform {\n  encryption {}\n}\n", "b.tf": "terraform {\n  encryption {}\n}\n"},
			wantBlock: true,
			wantDiags: []diagWant{errAt("Duplicate encryption configuration", "b.tf:2:3")},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m, ds := loadStrings(tc.files)
			if diff := cmp.Diff(tc.wantDiags, summarizeDiags(ds)); diff != "" {
				t.Errorf("%s: diagnostics -want +got\n%s", tc.reason, diff)
			}
			if got := m.Encryption != nil; got != tc.wantBlock {
				t.Errorf("%s: Encryption set = %v, want %v", tc.reason, got, tc.wantBlock)
			}
		})
	}
}
