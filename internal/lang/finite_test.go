package lang

import (
	"math"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestUnstorableNumber holds the diagnostic; states' TestFirstUnstorableNumber
// holds which numbers are refused and where they are found.
func TestUnstorableNumber(t *testing.T) {
	inf := cty.NumberFloatVal(math.Inf(1))
	tests := map[string]struct {
		reason   string
		val      cty.Value
		wantPath cty.Path // nil: no diagnostic
		wantWhat string
	}{
		"finite":    {val: cty.ObjectVal(map[string]cty.Value{"n": cty.NumberIntVal(1)})},
		"top":       {reason: "the value itself: an empty path", val: inf, wantPath: cty.Path{}, wantWhat: "+Inf"},
		"too large": {val: cty.MustParseNumberVal("1e30000000"), wantPath: cty.Path{}, wantWhat: "about 1e30000000"},
		"object attr": {
			reason:   "the diagnostic is located at the attribute, which the caller resolves to its source",
			val:      cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.ObjectVal(map[string]cty.Value{"n": inf})}),
			wantPath: cty.GetAttrPath("b").GetAttr("n"), wantWhat: "+Inf",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			d := UnstorableNumber(tc.val)
			if tc.wantPath == nil {
				if d != nil {
					t.Fatalf("%s\nunexpected diagnostic: %v", tc.reason, d)
				}
				return
			}
			if d == nil {
				t.Fatalf("%s\nno diagnostic for %#v", tc.reason, tc.val)
			}
			if !tc.wantPath.Equals(d.Path) {
				t.Errorf("%s\npath %#v, want %#v", tc.reason, d.Path, tc.wantPath)
			}
			if d.Summary != "Number out of range" || !strings.Contains(d.Detail, tc.wantWhat) {
				t.Errorf("%s\ndiagnostic %q: %q", tc.reason, d.Summary, d.Detail)
			}
		})
	}
}
