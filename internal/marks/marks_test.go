package marks

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestContainsAndUnmark(t *testing.T) {
	secret := cty.StringVal("s").Mark("sensitive")
	tests := map[string]struct {
		v    cty.Value
		want bool
	}{
		"plain object":      {v: cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x")}), want: false},
		"top-level mark":    {v: secret, want: true},
		"mark in object":    {v: cty.ObjectVal(map[string]cty.Value{"a": secret}), want: true},
		"mark in list":      {v: cty.ListVal([]cty.Value{cty.StringVal("a"), secret}), want: true},
		"mark in map value": {v: cty.MapVal(map[string]cty.Value{"k": secret}), want: true},
		"unknown":           {v: cty.UnknownVal(cty.String), want: false},
		"null":              {v: cty.NullVal(cty.String), want: false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := Contains(tc.v); got != tc.want {
				t.Fatalf("Contains = %v, want %v", got, tc.want)
			}
			u, pvm := Unmark(tc.v)
			if Contains(u) {
				t.Errorf("Unmark left marks in %#v", u)
			}
			if (len(pvm) > 0) != tc.want {
				t.Errorf("Unmark paths = %v, want some: %v", pvm, tc.want)
			}
			if back := Apply(u, pvm); !back.RawEquals(tc.v) {
				t.Errorf("Apply(Unmark(v)) = %#v, want %#v", back, tc.v)
			}
		})
	}
}
