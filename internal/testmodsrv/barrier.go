package testmodsrv

import (
	"net/http"
	"strings"
	"sync"
	"time"
)

// Barrier holds requests whose path starts with a prefix until n of them
// are in flight at once, then lets that group through and starts over,
// so a test proves a client downloads in parallel without measuring
// time: a client fetching one at a time never fills the group, and
// after Timeout its request is refused with 409 Conflict (no client
// retries that). Requests whose client hangs up while held are counted
// as Abandoned: a client that cancels its other downloads on a failure
// shows here. It is safe for concurrent use.
type Barrier struct {
	Prefix  string
	N       int
	Timeout time.Duration

	mu        sync.Mutex
	waiting   int
	open      chan struct{}
	abandoned int
	maxHeld   int
	watchers  []heldWatch
}

// heldWatch is a channel to close once n requests are held at once.
type heldWatch struct {
	n  int
	ch chan struct{}
}

// NewBarrier returns a barrier for paths under prefix, groups of n, that
// gives up after 10 seconds.
func NewBarrier(prefix string, n int) *Barrier {
	return &Barrier{Prefix: prefix, N: n, Timeout: 10 * time.Second, open: make(chan struct{})}
}

// Wrap returns next behind the barrier.
func (b *Barrier) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, b.Prefix) && !b.wait(r) {
			http.Error(w, "barrier: requests did not arrive together", http.StatusConflict)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// wait holds one request; false when it is refused or abandoned.
func (b *Barrier) wait(r *http.Request) bool {
	b.mu.Lock()
	open := b.open
	b.waiting++
	b.maxHeld = max(b.maxHeld, b.waiting)
	b.notify()
	if b.waiting == b.N {
		close(b.open)
		b.open, b.waiting = make(chan struct{}), 0
	}
	b.mu.Unlock()
	t := time.NewTimer(b.Timeout)
	defer t.Stop()
	select {
	case <-open:
		return true
	case <-r.Context().Done():
		b.leave(open, true)
	case <-t.C:
		b.leave(open, false)
	}
	return false
}

// leave takes a held request out of its group, unless the group opened
// meanwhile.
func (b *Barrier) leave(open chan struct{}, abandoned bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if open == b.open {
		b.waiting--
	}
	if abandoned {
		b.abandoned++
	}
}

// Abandoned is how many held requests their clients gave up on.
func (b *Barrier) Abandoned() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.abandoned
}

// MaxHeld is the most requests held at once: how many downloads the
// client had in flight.
func (b *Barrier) MaxHeld() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.maxHeld
}

// Holding returns a channel closed once n requests are held at once, so
// a test can let another request through only when the client has these
// in flight (a failure that must cancel them, not overtake them).
func (b *Barrier) Holding(n int) <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	w := heldWatch{n: n, ch: make(chan struct{})}
	b.watchers = append(b.watchers, w)
	b.notify()
	return w.ch
}

// notify closes the watchers' channels the group reached; b.mu is held.
func (b *Barrier) notify() {
	kept := b.watchers[:0]
	for _, w := range b.watchers {
		if b.maxHeld >= w.n {
			close(w.ch)
			continue
		}
		kept = append(kept, w)
	}
	b.watchers = kept
}
