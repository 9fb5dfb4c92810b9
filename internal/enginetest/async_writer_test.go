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
// its record is durable, while its dependents may already run.
func TestCompleteOnlyWhenDurable(t *testing.T) {
	h, _ := New(map[string]string{"main.tf": `
resource "terraform_data" "a" { input = "a" }
resource "terraform_data" "b" { input = terraform_data.a.id }
`})
	p, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	w := &slowDurableWriter{MemoryWriter: MemoryWriter{State: states.NewState()}, durable: map[string]chan struct{}{
		"terraform_data.a": make(chan struct{}), "terraform_data.b": make(chan struct{}),
	}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		applying.Apply(context.Background(), applying.Options{
			Plan: p, Config: h.Config, Providers: providers.NewLibrary(h.Providers), Funcs: funcs.Table("."), State: w, Hooks: eventHooks{w: w},
		})
	}()
	// b is recorded (its create ran) while a is not yet durable.
	waitFor(t, w, "recorded terraform_data.b")
	for _, e := range w.snapshot() {
		if e == "complete terraform_data.a" {
			t.Fatal("a reported complete before its record was durable")
		}
	}
	close(w.durable["terraform_data.a"])
	close(w.durable["terraform_data.b"])
	<-done
	ev := w.snapshot()
	if index(ev, "durable terraform_data.a") > index(ev, "complete terraform_data.a") ||
		index(ev, "durable terraform_data.b") > index(ev, "complete terraform_data.b") {
		t.Fatalf("completion reported before durability: %v", ev)
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
