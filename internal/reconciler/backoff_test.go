package reconciler

import (
	"context"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv1 "github.com/crossplane/crossplane-runtime/v2/apis/common/v1"

	"github.com/cairn-iac/cairn/internal/testkube"
)

// endpointCalls is an slog.Handler for the endpoint's request log that
// keeps the UpdateResource calls: when each came and its request token.
type endpointCalls struct {
	mu      sync.Mutex
	updates []endpointCall
}

type endpointCall struct {
	at    time.Time
	token string
}

func (h *endpointCalls) Enabled(context.Context, slog.Level) bool { return true }
func (h *endpointCalls) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *endpointCalls) WithGroup(string) slog.Handler            { return h }

func (h *endpointCalls) Handle(_ context.Context, r slog.Record) error {
	var op, token string
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "op":
			op = a.Value.String()
		case "token":
			token = a.Value.String()
		}
		return true
	})
	if op == "UpdateResource" {
		h.mu.Lock()
		h.updates = append(h.updates, endpointCall{at: r.Time, token: token})
		h.mu.Unlock()
	}
	return nil
}

// since returns the UpdateResource calls from t on.
func (h *endpointCalls) since(t time.Time) []endpointCall {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []endpointCall
	for _, c := range h.updates {
		if !c.at.Before(t) {
			out = append(out, c)
		}
	}
	return out
}

// failingLogGroup is a LogGroup on a real cluster, Ready, whose spec the
// test is about to break, and what it runs on.
type failingLogGroup struct {
	lc    *liveController
	calls *endpointCalls
	key   client.ObjectKey
	m     *Managed
}

// newFailingLogGroup starts the endpoint and the controller (poll 10 m,
// so nothing but the spec and the backoff starts a reconcile), creates
// LogGroup team/lg with a retention of 7 days and waits until it is
// Ready and Synced.
func newFailingLogGroup(t testing.TB, ctx context.Context) *failingLogGroup {
	t.Helper()
	ctrl.SetLogger(logr.Discard())
	cluster := testkube.Start(t)
	calls := &endpointCalls{}
	startEndpoint(t, slog.New(calls))
	p, kind := logGroupKind(t)
	lc := newLiveController(t, cluster, p, kind, Options{PollInterval: 10 * time.Minute})
	mustCreate(t, lc.kube, providerConfig(), namespace("team"))
	lc.start(ctx)
	f := &failingLogGroup{lc: lc, calls: calls, key: client.ObjectKey{Namespace: "team", Name: "lg"},
		m: NewManaged(kind.GVK.GroupVersion().String(), kind.GVK.Kind)}
	lg := NewManaged(kind.GVK.GroupVersion().String(), kind.GVK.Kind)
	lg.SetNamespace(f.key.Namespace)
	lg.SetName(f.key.Name)
	lg.Object["spec"] = map[string]any{"forProvider": map[string]any{"retentionInDays": int64(7)}}
	mustCreate(t, lc.kube, &lg.Unstructured)
	f.await(t, "Ready and Synced", time.Minute, func(m *Managed) bool {
		return m.GetCondition(xpv1.TypeReady).Status == "True" && m.GetCondition(xpv1.TypeSynced).Status == "True"
	})
	return f
}

// setRetention patches spec.forProvider.retentionInDays.
func (f *failingLogGroup) setRetention(t testing.TB, days int) {
	t.Helper()
	patch := client.RawPatch("application/merge-patch+json", []byte(`{"spec":{"forProvider":{"retentionInDays":`+strconv.Itoa(days)+`}}}`))
	if err := f.lc.kube.Patch(context.Background(), &f.m.Unstructured, patch); err != nil {
		t.Fatal(err)
	}
}

// setSyncedMessage writes the Synced condition with msg through the
// status subresource, a change of status only.
func (f *failingLogGroup) setSyncedMessage(t testing.TB, msg string) {
	t.Helper()
	m := f.get(t)
	c := m.GetCondition(xpv1.TypeSynced)
	c.Message = msg
	m.SetConditions(c)
	if err := f.lc.kube.Status().Update(context.Background(), &m.Unstructured); err != nil {
		t.Fatal(err)
	}
}

// get reads the LogGroup.
func (f *failingLogGroup) get(t testing.TB) *Managed {
	t.Helper()
	if err := f.lc.kube.Get(context.Background(), f.key, f.m); err != nil {
		t.Fatal(err)
	}
	return f.m
}

// await reads the LogGroup until ok holds, failing the test after limit.
func (f *failingLogGroup) await(t testing.TB, what string, limit time.Duration, ok func(*Managed) bool) *Managed {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		if ok(f.get(t)) {
			return f.m
		}
		if time.Now().After(deadline) {
			t.Fatalf("LogGroup not %s after %s; status: %v", what, limit, f.m.Object["status"])
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// awaitUpdates waits until n UpdateResource calls came since t and
// returns them.
func (f *failingLogGroup) awaitUpdates(tb testing.TB, since time.Time, n int, limit time.Duration) []endpointCall {
	tb.Helper()
	deadline := time.Now().Add(limit)
	for {
		if got := f.calls.since(since); len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			tb.Fatalf("%d UpdateResource calls after %s, want %d", len(f.calls.since(since)), limit, n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestFailingUpdateBacksOff breaks a Ready LogGroup's spec with a
// retention Cloud Control refuses, on a real kube-apiserver against
// Cairn's endpoint, and counts the UpdateResource calls that follow.
// crossplane-runtime's controller rate limiter retries after 1, 2, 4, 8,
// 16 s…, so a 20 s window holds 5 attempts (the first and four retries);
// a Synced message that differs on every attempt wakes the reconciler
// with each status write, and it retried at once (over 100 calls in
// 20 s before the fix). The Synced condition reads the same on every
// attempt and names no request token. Once the backoff stands at 32 s, a
// status-only write starts no reconcile, and a spec change is picked up
// by its watch event without waiting for the backoff.
func TestFailingUpdateBacksOff(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the controller on a real kube-apiserver for about 45 s")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := newFailingLogGroup(t, ctx)

	broken := time.Now()
	f.setRetention(t, 8)
	first := f.awaitUpdates(t, broken, 1, time.Minute)[0]
	failed := f.await(t, "Synced=False", time.Minute, func(m *Managed) bool {
		return m.GetCondition(xpv1.TypeSynced).Status == "False"
	}).GetCondition(xpv1.TypeSynced)

	const window = 20 * time.Second
	time.Sleep(time.Until(first.at.Add(window)))
	calls := f.calls.since(broken)
	inWindow := 0
	for _, c := range calls {
		if c.at.Before(first.at.Add(window)) {
			inWindow++
		}
	}
	t.Logf("%d UpdateResource calls in the %s after the first", inWindow, window)
	if inWindow > 6 {
		t.Errorf("%d UpdateResource calls in %s of a failing update; exponential backoff from 1 s makes 5", inWindow, window)
	}

	now := f.get(t).GetCondition(xpv1.TypeSynced)
	if !now.Equal(failed) || !now.LastTransitionTime.Equal(&failed.LastTransitionTime) {
		t.Errorf("Synced condition changed between identical failures:\nfirst: %+v\nlater: %+v", failed, now)
	}
	if !strings.Contains(now.Message, "Model validation failed") {
		t.Errorf("Synced message %q does not say why the update failed", now.Message)
	}
	for _, c := range calls {
		if c.token != "" && strings.Contains(now.Message, c.token) {
			t.Errorf("Synced message %q names request token %s", now.Message, c.token)
		}
	}

	if t.Failed() {
		return // no backoff to race the spec change against
	}

	// Right after the next retry the backoff waits twice the last gap
	// (32 s) before the one after. A status write (here the test's) must
	// not start it sooner; the spec change must not wait for it, nor for
	// half of it.
	calls = f.awaitUpdates(t, broken, len(calls)+1, 2*time.Minute)
	last, prev := calls[len(calls)-1].at, calls[len(calls)-2].at
	poked := time.Now()
	f.setSyncedMessage(t, "status written by the test")
	time.Sleep(5 * time.Second)
	if n := len(f.calls.since(poked)); n > 0 {
		t.Errorf("%d UpdateResource calls within 5 s of a status-only change; want none before the backoff's retry", n)
	}
	fixed := time.Now()
	f.setRetention(t, 14)
	f.await(t, "Synced=True with the new retention", time.Minute, func(m *Managed) bool {
		return m.GetCondition(xpv1.TypeSynced).Status == "True" && m.atProvider()["retentionInDays"] == int64(14)
	})
	done := f.calls.since(fixed)
	if len(done) == 0 {
		t.Fatal("no UpdateResource call after the spec change")
	}
	t.Logf("spec change applied %s after the patch; the backoff would have retried %s after it",
		done[0].at.Sub(fixed).Round(time.Millisecond), last.Add(2*last.Sub(prev)).Sub(fixed).Round(time.Millisecond))
	if done[0].at.After(last.Add(last.Sub(prev))) {
		t.Errorf("the spec change was applied %s after the patch, as late as the backoff's retry: its watch event did not start a reconcile",
			done[0].at.Sub(fixed).Round(time.Millisecond))
	}
}

// BenchmarkFailingUpdateCalls measures the UpdateResource calls a minute
// that one LogGroup with a retention Cloud Control refuses costs, from
// the first failure on (CAIRN_FAILING_WINDOW overrides the minute). It
// is a benchmark, not a test: run it with
// -run '^$' -bench FailingUpdateCalls -benchtime 1x.
func BenchmarkFailingUpdateCalls(b *testing.B) {
	window := time.Minute
	if d, err := time.ParseDuration(os.Getenv("CAIRN_FAILING_WINDOW")); err == nil && d > 0 {
		window = d
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := newFailingLogGroup(b, ctx)
	for i := 0; i < b.N; i++ {
		broken := time.Now()
		f.setRetention(b, 8+i)
		first := f.awaitUpdates(b, broken, 1, time.Minute)[0]
		time.Sleep(time.Until(first.at.Add(window)))
		n := len(f.calls.since(first.at)) - len(f.calls.since(first.at.Add(window)))
		b.ReportMetric(float64(n)/window.Minutes(), "UpdateResource/min")
	}
}
