package pg

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/cairn-iac/cairn/internal/testpg"
)

var srv testpg.Shared

func TestMain(m *testing.M) {
	code := m.Run()
	if err := srv.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	os.Exit(code)
}

// openBackend opens a backend on a new database; each call with the
// same url is another client (its own sessions).
func openBackend(t *testing.T, url string, cfg Config) *Backend {
	t.Helper()
	cfg.ConnString = url
	b, err := Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func stateOf(t *testing.T, b *Backend, name string) *State {
	t.Helper()
	s, err := b.state(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
