package testmodsrv

import (
	"net/http"
	"sync"
)

// Totals counts every request a server answers and the body bytes it
// sends, for benchmarks that report what a client fetched.
type Totals struct {
	mu       sync.Mutex
	requests int
	bytes    int64
}

// Wrap counts next's requests and response bytes.
func (t *Totals) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cw := &countingWriter{ResponseWriter: w}
		next.ServeHTTP(cw, r)
		t.mu.Lock()
		t.requests++
		t.bytes += cw.n
		t.mu.Unlock()
	})
}

// Get returns the requests answered and bytes sent so far.
func (t *Totals) Get() (requests int, bytes int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.requests, t.bytes
}

// countingWriter counts body bytes; Flush is passed on for git's
// streamed answers.
type countingWriter struct {
	http.ResponseWriter
	n int64
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.ResponseWriter.Write(b)
	c.n += int64(n)
	return n, err
}

func (c *countingWriter) Flush() {
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
