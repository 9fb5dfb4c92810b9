package enginetest

import (
	"context"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/applying"
	"github.com/cairn-iac/cairn/internal/lang/funcs"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// slowDurableWriter accepts objects at once and makes each durable only
// when the test says so, recording the order of events.
type slowDurableWriter struct {
	MemoryWriter
	mu      sync.Mutex
	events  []string
	durable map[string]chan struct{}
}

func (w *slowDurableWriter) event(e string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.events = append(w.events, e)
}

func (w *slowDurableWriter) SetObjectAsync(addr addrs.AbsResourceInstanceObject, obj *states.ObjectSrc, p addrs.AbsProviderConfig) (func() error, error) {
	if err := w.MemoryWriter.SetObject(addr, obj, p); err != nil {
		return nil, err
	}
	w.event("recorded " + addr.String())
	ch := w.durable[addr.String()]
	return func() error {
		<-ch
		w.event("durable " + addr.String())
		return nil
	}, nil
}

type eventHooks struct {
	applying.NoHooks
	w *slowDurableWriter
}

func (h eventHooks) PostApply(addr addrs.AbsResourceInstanceObject, _ plans.Action, _ cty.Value, _ error) {
	h.w.event("complete " + addr.String())
}

// TestCompleteOnlyWhenDurable: an instance is reported complete only after
// its record is durable; an instance that needs it starts only after that
// (so progress reads in dependency order), while independent ones run on.
func TestCompleteOnlyWhenDurable(t *testing.T) {
	h, _ := New(map[string]string{"main.tf": `
resource "terraform_data" "a" { input = "a" }
resource "terraform_data" "b" { input = terraform_data.a.id }
resource "terraform_data" "c" { input = "c" }
`})
	p, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	w := &slowDurableWriter{MemoryWriter: MemoryWriter{State: states.NewState()}, durable: map[string]chan struct{}{
		"terraform_data.a": make(chan struct{}), "terraform_data.b": make(chan struct{}), "terraform_data.c": make(chan struct{}),
	}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		applying.Apply(context.Background(), applying.Options{
			Plan: p, Config: h.Config, Providers: providers.NewLibrary(h.Providers), Funcs: funcs.Table("."), State: w, Hooks: eventHooks{w: w},
		})
	}()
	// a and c are recorded; neither is durable yet, so neither is
	// complete, and b, which needs a, has not started.
	waitFor(t, w, "recorded terraform_data.a")
	waitFor(t, w, "recorded terraform_data.c")
	for _, e := range w.snapshot() {
		if e == "complete terraform_data.a" || e == "recorded terraform_data.b" {
			t.Fatalf("%q before a's record was durable: %v", e, w.snapshot())
		}
	}
	close(w.durable["terraform_data.a"])
	waitFor(t, w, "recorded terraform_data.b")
	close(w.durable["terraform_data.b"])
	close(w.durable["terraform_data.c"])
	<-done
	ev := w.snapshot()
	if !(index(ev, "durable terraform_data.a") < index(ev, "complete terraform_data.a") &&
		index(ev, "complete terraform_data.a") < index(ev, "recorded terraform_data.b")) {
		t.Errorf("a must be durable, then complete, before b starts: %v", ev)
	}
	for _, r := range []string{"b", "c"} {
		if index(ev, "durable terraform_data."+r) > index(ev, "complete terraform_data."+r) {
			t.Errorf("%s reported complete before durable: %v", r, ev)
		}
	}
}

func (w *slowDurableWriter) snapshot() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.events...)
}

func waitFor(t *testing.T, w *slowDurableWriter, e string) {
	t.Helper()
	for i := 0; i < 5000; i++ {
		if index(w.snapshot(), e) >= 0 {
			return
		}
		sleepMs(1)
	}
	t.Fatalf("%q never happened: %v", e, w.snapshot())
}

func index(list []string, s string) int {
	for i, e := range list {
		if e == s {
			return i
		}
	}
	return -1
}
