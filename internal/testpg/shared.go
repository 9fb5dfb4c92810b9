package testpg

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
)

// Shared is one server for all the tests of a binary: the first test that
// asks starts it, and TestMain stops it after m.Run. The zero value is
// ready to use:
//
//	var pgsrv testpg.Shared
//
//	func TestMain(m *testing.M) {
//		code := m.Run()
//		pgsrv.Stop()
//		os.Exit(code)
//	}
//
//	func TestX(t *testing.T) { connStr := pgsrv.Database(t); ... }
type Shared struct {
	once sync.Once
	srv  *Server
	err  error

	mu sync.Mutex
	n  int
}

// Server returns the shared server, starting it on the first call; it
// skips tb when PostgreSQL is not installed and fails it when the server
// could not start.
func (s *Shared) Server(tb testing.TB) *Server {
	tb.Helper()
	s.once.Do(func() { s.srv, s.err = Start() })
	switch {
	case errors.Is(s.err, ErrNotInstalled):
		tb.Skipf("testpg: %v", s.err)
	case s.err != nil:
		tb.Fatalf("testpg: %v", s.err)
	}
	return s.srv
}

// Database creates a new database for tb on the shared server and
// returns its URL.
func (s *Shared) Database(tb testing.TB) string {
	tb.Helper()
	srv := s.Server(tb)
	url, err := srv.CreateDatabase(context.Background(), s.nextName())
	if err != nil {
		tb.Fatalf("testpg: %v", err)
	}
	return url
}

// NewDatabase is Database for callers without a testing.TB (testscript
// setup).
func (s *Shared) NewDatabase() (string, error) {
	s.once.Do(func() { s.srv, s.err = Start() })
	if s.err != nil {
		return "", s.err
	}
	return s.srv.CreateDatabase(context.Background(), s.nextName())
}

func (s *Shared) nextName() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	return fmt.Sprintf("test_%d", s.n)
}

// Stop stops the shared server if a test started it.
func (s *Shared) Stop() error {
	s.once.Do(func() { s.err = errors.New("shared server already stopped") })
	if s.srv == nil {
		return nil
	}
	return s.srv.Stop()
}
