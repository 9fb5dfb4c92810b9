package plugin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/testproviders/cairntest"
)

// TestPluginGone checks that a plugin that dies, is killed or was closed
// turns the next call into one error diagnostic naming the plugin, its
// binary and the operation, never a panic or a hang.
func TestPluginGone(t *testing.T) {
	cases := map[string]struct {
		reason string
		// gone ends the plugin's life before the call.
		gone func(t *testing.T, c *Client)
		want string
	}{
		"killed": {
			reason: "The process was killed between calls.",
			gone: func(t *testing.T, c *Client) {
				if err := syscall.Kill(c.PID(), syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
			},
			want: "terraform-provider-random) exited while running PlanResourceChange",
		},
		"closed": {
			reason: "The engine closed the client and called it again.",
			gone:   func(t *testing.T, c *Client) { _ = c.Close() },
			want:   ") was closed before it could run PlanResourceChange",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := configured(t, "random")
			b := s.block("random_pet")
			tc.gone(t, s.c)
			cfg := s.config(b, nil)
			resp := s.c.PlanResourceChange(context.Background(), providers.PlanResourceChangeRequest{
				TypeName: "random_pet", PriorState: cty.NullVal(b.ImpliedType()), ProposedNewState: cfg, Config: cfg})
			checkGone(t, tc.reason, resp.Diagnostics, tc.want, "PlanResourceChange")
			if err := s.c.StopProvider(context.Background()); err == nil || !strings.Contains(err.Error(), "StopProvider") {
				t.Errorf("StopProvider after the plugin is gone: %v, want an error naming the operation", err)
			}
			if err := s.c.Close(); err != nil {
				t.Errorf("Close after the plugin is gone: %v", err)
			}
			if err := s.c.Close(); err != nil {
				t.Errorf("second Close: %v", err)
			}
		})
	}
}

// TestPluginCrashesDuringCall crashes the self-launched protocol 6
// provider in the middle of ApplyResourceChange.
func TestPluginCrashesDuringCall(t *testing.T) {
	c := launchSelf(t)
	ctx := context.Background()
	schema := c.GetProviderSchema(ctx)
	noErrors(t, "GetProviderSchema", schema.Diagnostics)
	noErrors(t, "ConfigureProvider", c.ConfigureProvider(ctx, providers.ConfigureProviderRequest{Config: cairntestConfig}).Diagnostics)
	ty := schema.ResourceTypes["cairntest_thing"].Block.ImpliedType()
	cfg := thingConfig(ty, map[string]cty.Value{"name": cty.StringVal("a"), "crash": cty.True})
	plan := c.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
		TypeName: "cairntest_thing", PriorState: cty.NullVal(ty), ProposedNewState: cfg, Config: cfg})
	noErrors(t, "PlanResourceChange", plan.Diagnostics)
	resp := c.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
		TypeName: "cairntest_thing", PriorState: cty.NullVal(ty), PlannedState: plan.PlannedState, Config: cfg})
	checkGone(t, "The provider exited while applying.", resp.Diagnostics, "The plugin registry.terraform.io/cairn/cairntest (", "exited while running ApplyResourceChange")
}

func checkGone(t *testing.T, reason string, ds diags.Diagnostics, want, method string) {
	t.Helper()
	if len(ds) != 1 || ds[0].Severity != diags.Error {
		t.Fatalf("%s\ndiagnostics %v, want one error", reason, ds)
	}
	d := ds[0]
	if d.Summary != "Plugin did not respond" || !strings.Contains(d.Detail, want) || !strings.Contains(d.Detail, method) {
		t.Errorf("%s\ngot %q: %q\nwant a detail containing %q and %q", reason, d.Summary, d.Detail, want, method)
	}
}

// applyThing plans and applies a cairntest_thing with the given
// arguments under ctx.
func applyThing(ctx context.Context, t *testing.T, c *Client, set map[string]cty.Value) providers.ApplyResourceChangeResponse {
	t.Helper()
	bg := context.Background()
	schema := c.GetProviderSchema(bg)
	noErrors(t, "GetProviderSchema", schema.Diagnostics)
	noErrors(t, "ConfigureProvider", c.ConfigureProvider(bg, providers.ConfigureProviderRequest{Config: cairntestConfig}).Diagnostics)
	ty := schema.ResourceTypes["cairntest_thing"].Block.ImpliedType()
	cfg := thingConfig(ty, set)
	plan := c.PlanResourceChange(bg, providers.PlanResourceChangeRequest{
		TypeName: "cairntest_thing", PriorState: cty.NullVal(ty), ProposedNewState: cfg, Config: cfg})
	noErrors(t, "PlanResourceChange", plan.Diagnostics)
	return c.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
		TypeName: "cairntest_thing", PriorState: cty.NullVal(ty), PlannedState: plan.PlannedState, Config: cfg})
}

// TestInterruptStopsPlugin: cancelling an operation's context (the first
// Ctrl-C) sends StopProvider and waits for the provider's own answer
// instead of abandoning the call; the process lives on.
func TestInterruptStopsPlugin(t *testing.T) {
	c := launchSelf(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	resp := applyThing(ctx, t, c, map[string]cty.Value{"name": cty.StringVal("a"), "hang": cty.True})
	if len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Summary != "Create stopped" {
		t.Fatalf("want the provider's own answer to being stopped, got %v", resp.Diagnostics)
	}
	if c.PID() == 0 {
		t.Error("the plugin exited; a stop must leave it running")
	}
}

// TestHardStopAbandonsCall: a provider that ignores StopProvider is
// abandoned when the hard-stop context ends (the second Ctrl-C), with a
// diagnostic saying the outcome is unknown.
func TestHardStopAbandonsCall(t *testing.T) {
	c := launchSelf(t)
	ctx, cancel := context.WithCancel(context.Background())
	hard, cancelHard := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	time.AfterFunc(500*time.Millisecond, cancelHard)
	resp := applyThing(providers.WithHardStop(ctx, hard), t, c, map[string]cty.Value{"name": cty.StringVal("a"), "stuck": cty.True})
	checkGone(t, "A provider that ignores the stop is abandoned on the hard stop.", resp.Diagnostics,
		"when Cairn was told to stop at once", "had not answered ApplyResourceChange")
}

// TestHardStopWedgedPlugin: a plugin process that cannot answer at all
// (stopped with SIGSTOP in the middle of a create, as a wedged process
// is) neither answers the interrupt's StopProvider nor the call; the
// second Ctrl-C abandons the call, and Close, which asks the plugin to
// shut down, gives up on the answer and kills the process, so the
// command exits.
func TestHardStopWedgedPlugin(t *testing.T) {
	markers := t.TempDir()
	t.Setenv(cairntest.MarkerDirEnv, markers)
	c := launchSelf(t)
	pid := c.PID()
	ctx, cancel := context.WithCancel(context.Background())
	hard, cancelHard := context.WithCancel(context.Background())
	go func() {
		// Once Create is running, the process stops for good; then the
		// two interrupts come.
		waitFile(t, filepath.Join(markers, "stuck"))
		if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
			t.Error(err)
		}
		cancel()
		cancelHard()
	}()
	resp := applyThing(providers.WithHardStop(ctx, hard), t, c, map[string]cty.Value{"name": cty.StringVal("a"), "stuck": cty.True})
	checkGone(t, "The call to a stopped plugin is abandoned on the hard stop.", resp.Diagnostics,
		"when Cairn was told to stop at once", "had not answered ApplyResourceChange")
	closeGone(t, c, pid)
}

// TestCloseWedgedPlugin: Close of a plugin that does not answer (stopped
// with SIGSTOP between calls) gives up asking it to exit after a bound
// and kills it.
func TestCloseWedgedPlugin(t *testing.T) {
	c := launchSelf(t)
	pid := c.PID()
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	closeGone(t, c, pid)
}

// closeGone closes c and checks its process, pid, is gone.
func closeGone(t *testing.T, c *Client, pid int) {
	t.Helper()
	closed := make(chan error, 1)
	go func() { closed <- c.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(time.Minute):
		// A hang guard, not a measurement: Close waits a few seconds
		// at most before it kills the process.
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Fatal("Close of a stopped plugin did not return: it waits for an answer that never comes")
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Errorf("process %d still there after Close", pid)
	}
}

// waitFile waits until path exists.
func waitFile(t *testing.T, path string) {
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}
