package command

import (
	"testing"
)

func TestValidWorkspaceName(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"dev", true},
		{"prod-eu_1.x", true},
		{"a/b", false},
		{"has space", false},
		{"50%", false},
		{"ümlaut", false},
	} {
		if got := validWorkspaceName(tc.name); got != tc.want {
			t.Errorf("validWorkspaceName(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}
