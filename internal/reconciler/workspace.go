package reconciler

import (
	"context"
	"sync"

	"k8s.io/apimachinery/pkg/types"

	"github.com/cairn-iac/cairn/internal/states"
)

// Workspace is what the controller keeps in memory for one managed
// resource between reconciles: the last state it saw or made, and the
// operation in flight when the kind is asynchronous. Nothing in it is
// needed to be correct (a restarted controller rebuilds the state from the
// object); it saves a refresh's import and carries async results to the
// next reconcile. At most one operation runs per workspace.
type Workspace struct {
	mu    sync.Mutex
	state *states.Object
	op    *operation
	// settled is the desired state under which the last full
	// observation found state up to date; nil when state came from
	// anything else (an apply, a rebuild, an observation that found a
	// difference or failed). Any change of state clears it.
	settled *desiredKey
}

// operation is an asynchronous create, update or delete.
type operation struct {
	kind string // "create", "update", "delete"
	done chan struct{}
	// set when done
	err error
}

// running returns the operation in flight, or nil.
func (w *Workspace) running() *operation {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.op == nil {
		return nil
	}
	select {
	case <-w.op.done:
		return nil
	default:
		return w.op
	}
}

// finished takes the result of the last operation if it has ended: its
// kind and error, ok false when there is none to report.
func (w *Workspace) finished() (kind string, err error, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.op == nil {
		return "", nil, false
	}
	select {
	case <-w.op.done:
		op := w.op
		w.op = nil
		return op.kind, op.err, true
	default:
		return "", nil, false
	}
}

// start runs fn as the workspace's operation unless one is in flight
// (then it returns false). fn's error is kept for the next reconcile.
func (w *Workspace) start(kind string, fn func(context.Context) error) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.op != nil {
		select {
		case <-w.op.done:
		default:
			return false
		}
	}
	op := &operation{kind: kind, done: make(chan struct{})}
	w.op = op
	go func() {
		defer close(op.done)
		op.err = fn(context.Background())
	}()
	return true
}

// State returns the state kept, or nil.
func (w *Workspace) State() *states.Object {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.state
}

// setState keeps o as the state; what was settled about the previous
// state no longer holds.
func (w *Workspace) setState(o *states.Object) {
	w.mu.Lock()
	w.state, w.settled = o, nil
	w.mu.Unlock()
}

// settle records that a full observation found obj up to date with the
// desired state k. It does nothing when the state is no longer obj (an
// asynchronous operation replaced it meanwhile).
func (w *Workspace) settle(obj *states.Object, k desiredKey) {
	w.mu.Lock()
	if w.state == obj {
		w.settled = &k
	}
	w.mu.Unlock()
}

// unchanged reports whether a refreshed object and the desired state k
// are those of the last full observation that found the resource up to
// date: then nothing that decides the observation's outcome has changed
// and the plan need not run again.
func (w *Workspace) unchanged(refreshed *states.Object, k desiredKey) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.settled != nil && w.state != nil && w.settled.equal(k) && sameObject(w.state, refreshed)
}

// Workspaces holds one workspace per managed resource, keyed by UID (a
// deleted and re-created object with the same name is a new workspace).
type Workspaces struct {
	mu sync.Mutex
	m  map[types.UID]*Workspace
}

// Get returns uid's workspace, making it on first use.
func (ws *Workspaces) Get(uid types.UID) *Workspace {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.m == nil {
		ws.m = map[types.UID]*Workspace{}
	}
	w := ws.m[uid]
	if w == nil {
		w = &Workspace{}
		ws.m[uid] = w
	}
	return w
}

// Forget drops uid's workspace (the object is gone).
func (ws *Workspaces) Forget(uid types.UID) {
	ws.mu.Lock()
	delete(ws.m, uid)
	ws.mu.Unlock()
}

// Len is the number of workspaces held.
func (ws *Workspaces) Len() int {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return len(ws.m)
}
