package testkube

import (
	"errors"
	"sync"
	"testing"
)

// Shared is one cluster for all the tests of a package: the first test
// that asks for it starts it, and TestMain stops it after m.Run. Starting
// takes seconds, so a package with many cluster tests shares one, each
// test working in its own namespace or with its own names. The zero value
// is ready to use:
//
//	var kube testkube.Shared
//
//	func TestMain(m *testing.M) {
//		code := m.Run()
//		if err := kube.Stop(); err != nil {
//			fmt.Fprintln(os.Stderr, err)
//			code = 1
//		}
//		os.Exit(code)
//	}
//
//	func TestX(t *testing.T) { c := kube.Cluster(t); ... }
type Shared struct {
	once    sync.Once
	cluster *Cluster
	stop    func() error
	err     error
}

// Cluster returns the shared cluster, starting it on the first call. Like
// Start, it skips the test when the binaries are not installed and fails
// it when the cluster could not start; every later caller sees the same
// outcome without trying again.
func (s *Shared) Cluster(tb testing.TB) *Cluster {
	tb.Helper()
	s.once.Do(func() { s.cluster, s.stop, s.err = StartMain() })
	switch {
	case errors.Is(s.err, ErrNotInstalled):
		tb.Skipf("testkube: %v", s.err)
	case s.err != nil:
		tb.Fatalf("testkube: %v", s.err)
	}
	return s.cluster
}

// Stop stops the shared cluster if a test started it, and makes later
// calls to Cluster fail rather than start another. Call it once, after
// m.Run, when no test is running.
func (s *Shared) Stop() error {
	s.once.Do(func() { s.err = errors.New("shared cluster already stopped") })
	if s.stop == nil {
		return nil
	}
	return s.stop()
}
