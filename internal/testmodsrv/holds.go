package testmodsrv

import (
	"net/http"
	"strings"
	"sync"
	"time"
)

// Holds is what a test server puts in front of its handler to hold
// requests: Barriers (a group of downloads let through together) and
// gates (requests that wait for a channel). The module and provider test
// servers share it. It is safe for concurrent use.
type Holds struct {
	mu       sync.Mutex
	barriers []*Barrier
	gates    []gate
}

// Add puts b in front of the handler and returns it.
func (h *Holds) Add(b *Barrier) *Barrier {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.barriers = append(h.barriers, b)
	return b
}

// Until holds the GET requests for paths under prefix until ready is
// closed (at most ten seconds, then they go on).
func (h *Holds) Until(prefix string, ready <-chan struct{}) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.gates = append(h.gates, gate{prefix: prefix, ready: ready})
}

// Wrap returns next behind the holds in place when each request arrives.
func (h *Holds) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		held := next
		for _, b := range h.barriers {
			held = b.Wrap(held)
		}
		gates := append([]gate(nil), h.gates...)
		h.mu.Unlock()
		for _, g := range gates {
			g.wait(r)
		}
		held.ServeHTTP(w, r)
	})
}

// gate is one Until.
type gate struct {
	prefix string
	ready  <-chan struct{}
}

// wait holds r while its gate is shut.
func (g gate) wait(r *http.Request) {
	if r.Method != http.MethodGet || !strings.HasPrefix(r.URL.Path, g.prefix) {
		return
	}
	t := time.NewTimer(10 * time.Second)
	defer t.Stop()
	select {
	case <-g.ready:
	case <-r.Context().Done():
	case <-t.C:
	}
}
