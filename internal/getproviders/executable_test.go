package getproviders_test

import (
	"path/filepath"
	"testing"

	"github.com/cairn-iac/cairn/internal/getproviders"
)

func TestExecutableFile(t *testing.T) {
	tests := map[string]struct {
		reason string
		files  []string
		want   string
	}{
		"versioned":  {reason: "the usual name", files: []string{"README", "terraform-provider-foo_v1.2.3"}, want: "terraform-provider-foo_v1.2.3"},
		"bare":       {reason: "a dev_overrides build", files: []string{"terraform-provider-foo"}, want: "terraform-provider-foo"},
		"other type": {reason: "the prefix must end at _ or .", files: []string{"terraform-provider-foobar"}, want: ""},
		"first":      {reason: "name order decides", files: []string{"terraform-provider-foo_v2", "terraform-provider-foo.exe"}, want: "terraform-provider-foo.exe"},
		"empty":      {reason: "nothing to run", want: ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tc.files {
				writeFile(t, filepath.Join(dir, f), "x", 0o755)
			}
			got, err := getproviders.ExecutableFile(foo, dir)
			if tc.want == "" {
				if err == nil {
					t.Fatalf("%s: found %s", tc.reason, got)
				}
				return
			}
			if err != nil || got != filepath.Join(dir, tc.want) {
				t.Errorf("%s: got %s, %v", tc.reason, got, err)
			}
		})
	}
}
