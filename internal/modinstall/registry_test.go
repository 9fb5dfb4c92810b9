package modinstall

import (
	"net/url"
	"testing"
)

// TestSelectVersion checks registry version selection as Terraform
// selects: the newest version allowed, pre-releases only when named
// exactly.
func TestSelectVersion(t *testing.T) {
	available := []string{"1.0.0", "1.2.0", "1.10.0", "2.0.0-beta1", "2.0.0-beta2", "not-a-version"}
	cases := map[string]struct {
		reason     string
		constraint string
		want       string
	}{
		"Newest":          {reason: "no constraint: the newest release", constraint: "", want: "1.10.0"},
		"Pessimistic":     {reason: "~> 1.0 allows 1.x, compared as versions", constraint: "~> 1.0", want: "1.10.0"},
		"Exact":           {reason: "an exact version", constraint: "1.2.0", want: "1.2.0"},
		"PrereleaseNamed": {reason: "a pre-release named exactly", constraint: "2.0.0-beta1", want: "2.0.0-beta1"},
		"PrereleaseRange": {reason: "a range does not select pre-releases", constraint: ">= 2.0.0-beta1", want: ""},
		"None":            {reason: "nothing allowed", constraint: ">= 3", want: ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := selectVersion(available, tc.constraint)
			if err != nil || got != tc.want {
				t.Errorf("%s: selectVersion(%q) = %q, %v; want %q", tc.reason, tc.constraint, got, err, tc.want)
			}
		})
	}
}

// TestResolveLocation checks X-Terraform-Get locations relative to the
// download URL resolve against it and go-getter addresses pass through.
func TestResolveLocation(t *testing.T) {
	from, _ := url.Parse("https://registry.example.com/v1/modules/org/net/aws/1.0.0/download")
	cases := map[string]string{
		"/archive/net.tar.gz": "https://registry.example.com/archive/net.tar.gz",
		"./net.zip":           "https://registry.example.com/v1/modules/org/net/aws/1.0.0/net.zip",
		"git::https://example.com/net.git?ref=v1": "git::https://example.com/net.git?ref=v1",
		"https://cdn.example.com/net.tar.gz":      "https://cdn.example.com/net.tar.gz",
	}
	for loc, want := range cases {
		got, err := resolveLocation(from, loc)
		if err != nil || got != want {
			t.Errorf("resolveLocation(%q) = %q, %v; want %q", loc, got, err, want)
		}
	}
}
