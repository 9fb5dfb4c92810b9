package enginetest

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/applying"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/lang/funcs"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/google/go-cmp/cmp"
)

// ephemeralHarness loads src with the test provider, whose log it returns.
func ephemeralHarness(t *testing.T, src string) (*Harness, *TestProvider) {
	t.Helper()
	h, ds := New(map[string]string{"main.tf": src})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	tp := &TestProvider{}
	h.WithTestProvider(tp)
	return h, tp
}

// takeLog returns the provider's log and empties it.
func takeLog(tp *TestProvider) []string {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	out := tp.Log
	tp.Log = nil
	return out
}

// TestEphemeralResourcePhases: planning opens each instance whose
// configuration is known and closes it at its end; apply opens its own
// for what needs it and closes them after the last change; one whose
// configuration is unknown while planning is opened only in apply; one
// nothing needs is not opened in apply. The plan holds no change and no
// object of them.
func TestEphemeralResourcePhases(t *testing.T) {
	h, tp := ephemeralHarness(t, `
ephemeral "test_token" "t" {
  count = 2
  name  = "t${count.index}"
}
ephemeral "test_token" "unused" {
  name = "unused"
}
resource "test_thing" "a" {
  name = "a"
}
ephemeral "test_token" "late" {
  name = test_thing.a.id
}
resource "test_thing" "b" {
  count = 2
  name  = "b${count.index}"
  lifecycle {
    precondition {
      condition     = ephemeral.test_token.t[count.index].value == "token-t${count.index}"
      error_message = "Wrong token."
    }
    precondition {
      condition     = ephemeral.test_token.late.value != ""
      error_message = "No token."
    }
  }
}
`)
	p, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	got := takeLog(tp)
	slices.Sort(got)
	if diff := cmp.Diff([]string{"close t0", "close t1", "close unused", "open t0", "open t1", "open unused"}, got); diff != "" {
		t.Errorf("planning (-want +got):\n%s", diff)
	}
	for _, c := range p.Changes {
		if strings.HasPrefix(c.Addr.String(), "ephemeral.") {
			t.Errorf("the plan has a change of %s", c.Addr)
		}
	}
	if ds := h.Apply(p); ds.HasErrors() {
		t.Fatal(ds)
	}
	got = takeLog(tp)
	last := func(prefix string) int {
		i := -1
		for j, l := range got {
			if strings.HasPrefix(l, prefix) {
				i = j
			}
		}
		return i
	}
	if last("open unused") >= 0 {
		t.Errorf("apply opened what nothing needs: %q", got)
	}
	for _, name := range []string{"t0", "t1", "thing-1"} {
		open, closed := last("open "+name), last("close "+name)
		if open < 0 || closed < open || closed < last("apply ") {
			t.Errorf("apply did not open %s, then close it after the last change: %q", name, got)
		}
	}
	for _, rs := range h.State.Resources {
		if strings.HasPrefix(rs.Addr.String(), "ephemeral.") {
			t.Errorf("state has %s", rs.Addr)
		}
	}
}

// TestEphemeralResourceClosedOnFailure: an apply that fails, and one whose
// context is cancelled while a create runs, close what they opened.
func TestEphemeralResourceClosedOnFailure(t *testing.T) {
	const src = `
ephemeral "test_token" "t" {
  name = "t"
}
resource "test_thing" "a" {
  name = "a"
  fail = var.fail
  lifecycle {
    precondition {
      condition     = ephemeral.test_token.t.value != ""
      error_message = "No token."
    }
  }
}
variable "fail" {
  default = false
}
`
	cases := map[string]struct {
		reason string
		fail   bool
		cancel bool
	}{
		"Fails":     {reason: "The create fails.", fail: true},
		"Cancelled": {reason: "The run's context is cancelled while the create runs (Ctrl-C).", cancel: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h, tp := ephemeralHarness(t, src)
			if tc.fail {
				h.Vars = map[string]eval.RawVariable{"fail": {Source: eval.FromCLI, Raw: "true", Origin: "-var"}}
			}
			p, ds := h.Plan(plans.NormalMode)
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			takeLog(tp)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.cancel {
				tp.CreateHook = func(providers.CreateRecorder, *providers.ApplyResourceChangeResponse) { cancel() }
			}
			lib := providers.NewLibrary(h.Providers)
			defer lib.Close()
			ds = applying.Apply(ctx, applying.Options{
				Plan: p, Config: h.Config, Providers: lib, Funcs: funcs.Table(h.Config.SourceDir),
				State: &MemoryWriter{State: p.PriorState.DeepCopy()},
			})
			if !ds.HasErrors() {
				t.Fatalf("%s\nthe apply succeeded", tc.reason)
			}
			got := takeLog(tp)
			if len(got) == 0 || got[len(got)-1] != "close t" || got[0] != "open t" {
				t.Errorf("%s\nlog %q, want the token opened first and closed last", tc.reason, got)
			}
		})
	}
}

// TestEphemeralResourceForDeferredCheck: a token whose configuration is
// unknown while planning (it names a thing created by the same plan)
// decides the precondition of a thing with no change; apply opens it for
// the check planning left to apply (OpCheck), and the check passes.
func TestEphemeralResourceForDeferredCheck(t *testing.T) {
	const first = `
resource "test_thing" "c" {
  name = "c"
}
`
	h, tp := ephemeralHarness(t, first)
	p, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if ds := h.Apply(p); ds.HasErrors() {
		t.Fatal(ds)
	}
	h2, ds := New(map[string]string{"main.tf": `
resource "test_thing" "n" {
  name = "n"
}
ephemeral "test_token" "late" {
  name = test_thing.n.id
}
resource "test_thing" "c" {
  name = "c"
  lifecycle {
    precondition {
      condition     = ephemeral.test_token.late.value == "token-${test_thing.n.id}"
      error_message = "Wrong token."
    }
  }
}
`})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	h2.WithTestProvider(tp)
	h2.State = h.State
	takeLog(tp)
	p, ds = h2.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	for _, c := range p.Changes {
		if c.Addr.String() == "test_thing.c" && c.Action != plans.NoOp {
			t.Fatalf("test_thing.c plans %s, want no change", c.Action)
		}
	}
	if got := takeLog(tp); slices.ContainsFunc(got, func(l string) bool { return strings.HasPrefix(l, "open") }) {
		t.Errorf("planning opened a token whose name is unknown: %q", got)
	}
	if ds := h2.Apply(p); ds.HasErrors() {
		t.Fatal(ds)
	}
	if got := takeLog(tp); !slices.Contains(got, "open thing-2") || got[len(got)-1] != "close thing-2" {
		t.Errorf("apply log %q, want the token opened for the check and closed last", got)
	}
}
