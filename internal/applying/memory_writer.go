package applying

import (
	"sync"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
)

// MemoryWriter is a StateWriter over a state in memory, for callers that
// keep the state themselves rather than in a backend: a module run inside
// the Pulumi plugin, and the engine's tests. Apply calls it from several
// goroutines.
type MemoryWriter struct {
	mu    sync.Mutex
	State *states.State
}

// SetObject implements StateWriter.
func (w *MemoryWriter) SetObject(addr addrs.AbsResourceInstanceObject, obj *states.ObjectSrc, provider addrs.AbsProviderConfig) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.State.SetObject(addr, obj, provider)
	return nil
}

// SetOutput implements StateWriter; nil removes the output.
func (w *MemoryWriter) SetOutput(name string, v *states.OutputValue) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if v == nil {
		delete(w.State.Outputs, name)
		return nil
	}
	w.State.Outputs[name] = v
	return nil
}

// With calls f with the state under the writer's lock, so a caller can
// read it while an apply is still writing.
func (w *MemoryWriter) With(f func(*states.State)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	f(w.State)
}
