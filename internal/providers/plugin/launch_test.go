package plugin

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/providers"
)

func TestLaunchFails(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "terraform-provider-missing")
	cases := map[string]struct {
		reason string
		path   string
		want   string
	}{
		"missing": {"A binary that does not exist is named in the error.", missing, missing},
		"not a plugin": {"A program that exits without the handshake is named in the error.",
			"/bin/true", "starting provider true (/bin/true)"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c, err := Launch(context.Background(), tc.path, Options{})
			if err == nil {
				_ = c.Close()
				t.Fatalf("%s: Launch succeeded", tc.reason)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s\nerror %q, want it to contain %q", tc.reason, err, tc.want)
			}
		})
	}
}

// TestTerraformVersion checks what ConfigureProvider tells the provider:
// the engine's version when it gives one, else Terraform 1.5.7's.
func TestTerraformVersion(t *testing.T) {
	cases := map[string]struct {
		reason string
		req    string
		want   string
	}{
		"default": {"With none given, the client claims the version Cairn matches.", "", "1.5.7"},
		"given":   {"The engine's version wins.", "1.5.0", "1.5.0"},
	}
	c := launchSelf(t)
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resp := c.ConfigureProvider(context.Background(), providers.ConfigureProviderRequest{TerraformVersion: tc.req, Config: cty.EmptyObjectVal})
			if len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Detail != tc.want {
				t.Errorf("%s\ndiagnostics %v, want the provider to see %q", tc.reason, resp.Diagnostics, tc.want)
			}
		})
	}
}
