package enginetest

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/applying"
	"github.com/cairn-iac/cairn/internal/lang/funcs"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
)

// failingWriter records the first n objects and then fails every write,
// as a journal on a full disk does.
type failingWriter struct {
	MemoryWriter
	mu sync.Mutex
	n  int
}

func (w *failingWriter) SetObject(addr addrs.AbsResourceInstanceObject, obj *states.ObjectSrc, p addrs.AbsProviderConfig) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.n == 0 {
		return errors.New("no space left on device")
	}
	w.n--
	return w.MemoryWriter.SetObject(addr, obj, p)
}

// TestApplyStopsWhenStateFails: once a result cannot be recorded, no new
// operation starts; only those already running finish.
func TestApplyStopsWhenStateFails(t *testing.T) {
	h, _ := New(map[string]string{"main.tf": `
resource "test_thing" "many" {
  count = 100
  name  = "n${count.index}"
}
`})
	tp := &TestProvider{}
	h.WithTestProvider(tp)
	p, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	const parallelism = 4
	w := &failingWriter{MemoryWriter: MemoryWriter{State: p.PriorState.DeepCopy()}, n: 10}
	lib := providers.NewLibrary(h.Providers)
	defer lib.Close()
	ds = applying.Apply(context.Background(), applying.Options{
		Plan: p, Config: h.Config, Providers: lib, Funcs: funcs.Table(h.Config.SourceDir),
		Parallelism: parallelism, State: w,
	})
	wantDiag(t, ds, "Failed to persist state", "")
	wantDiag(t, ds, "Apply stopped", "")
	// The failing write's operation and those running beside it finish;
	// nothing starts afterwards.
	if got := len(tp.Log); got > 10+parallelism {
		t.Errorf("%d objects were created after recording failed at the 11th; want at most %d", got, 10+parallelism)
	}
}
