package planning

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-iac/cairn/internal/configschema"
)

// TestRequiresArguments decides which list resource types -all skips:
// those whose list block cannot be written without an argument.
func TestRequiresArguments(t *testing.T) {
	cases := map[string]struct {
		reason string
		block  *configschema.Block
		want   bool
	}{
		"none":           {reason: "no schema: nothing to require", want: false},
		"empty":          {reason: "awscc's list blocks have no arguments", block: &configschema.Block{}, want: false},
		"optional":       {reason: "optional arguments may be left out", block: &configschema.Block{Attributes: map[string]*configschema.Attribute{"prefix": {Optional: true}}}, want: false},
		"required":       {reason: "a required argument needs a value", block: &configschema.Block{Attributes: map[string]*configschema.Attribute{"prefix": {Required: true}}}, want: true},
		"block min":      {reason: "a nested block that must appear", block: &configschema.Block{BlockTypes: map[string]*configschema.NestedBlock{"filter": {MinItems: 1}}}, want: true},
		"block optional": {reason: "a nested block that may be left out", block: &configschema.Block{BlockTypes: map[string]*configschema.NestedBlock{"filter": {}}}, want: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, requiresArguments(tc.block)); diff != "" {
				t.Errorf("%s: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
