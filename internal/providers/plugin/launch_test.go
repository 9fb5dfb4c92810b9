package plugin

import (
	"context"
	"path/filepath"
	"strings"
	"syscall"
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
			resp := c.ConfigureProvider(context.Background(), providers.ConfigureProviderRequest{TerraformVersion: tc.req, Config: cairntestConfig})
			if len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Detail != tc.want {
				t.Errorf("%s\ndiagnostics %v, want the provider to see %q", tc.reason, resp.Diagnostics, tc.want)
			}
		})
	}
}

// TestPrivateRoundTrip applies with the protocol 6 test provider, whose
// Read fails unless the private state Create wrote comes back.
func TestPrivateRoundTrip(t *testing.T) {
	c := launchSelf(t)
	ctx := context.Background()
	schema := c.GetProviderSchema(ctx)
	ty := schema.ResourceTypes["cairntest_thing"].Block.ImpliedType()
	cfg := thingConfig(ty, map[string]cty.Value{
		"name":  cty.StringVal("a"),
		"rules": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(80)})}),
	})
	plan := c.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
		TypeName: "cairntest_thing", PriorState: cty.NullVal(ty), ProposedNewState: cfg, Config: cfg})
	noErrors(t, "PlanResourceChange", plan.Diagnostics)
	applied := c.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
		TypeName: "cairntest_thing", PriorState: cty.NullVal(ty), PlannedState: plan.PlannedState, Config: cfg, PlannedPrivate: plan.PlannedPrivate})
	noErrors(t, "ApplyResourceChange", applied.Diagnostics)
	if len(applied.Private) == 0 {
		t.Fatal("apply returned no private state")
	}
	read := c.ReadResource(ctx, providers.ReadResourceRequest{TypeName: "cairntest_thing", PriorState: applied.NewState, Private: applied.Private})
	noErrors(t, "ReadResource", read.Diagnostics)
	if got := read.NewState.GetAttr("rules"); !got.RawEquals(cfg.GetAttr("rules")) {
		t.Errorf("nested attribute after read = %#v", got)
	}
}

// TestCloseEndsProcess checks Close leaves no process behind.
func TestCloseEndsProcess(t *testing.T) {
	c := launch(t, "random")
	pid := c.PID()
	if pid == 0 {
		t.Fatal("no process id")
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	var ws syscall.WaitStatus
	// The process is go-plugin's child and already reaped; signal 0 only
	// checks that it no longer exists.
	_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
	if err := syscall.Kill(pid, 0); err == nil {
		t.Errorf("process %d still running after Close", pid)
	}
}
