package statemgr

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

func TestLockHeldByAnotherProcess(t *testing.T) {
	m := newManager(t)
	_, out, release := startChild(t, "hold-lock", m.Path())
	if !out.Scan() || out.Text() != "locked" {
		t.Fatalf("child did not take the lock: %q %v", out.Text(), out.Err())
	}

	const timeout = 300 * time.Millisecond
	start := time.Now()
	_, err := m.Lock(context.Background(), LockInfo{Operation: "OperationTypePlan"}, timeout)
	waited := time.Since(start)

	var lockErr *LockError
	if !errors.As(err, &lockErr) {
		t.Fatalf("Lock: got %v, want a *LockError", err)
	}
	if !errors.Is(err, ErrLocked) {
		t.Errorf("Lock error %v is not ErrLocked", err)
	}
	// A lower bound only: Lock must have waited out its timeout.
	if waited < timeout {
		t.Errorf("Lock gave up after %v, before its timeout of %v", waited, timeout)
	}
	msg := err.Error()
	for _, want := range []string{"Error acquiring the state lock", childInfo.ID, childInfo.Operation, childInfo.Info, childInfo.Version, m.Path(), "@"} {
		if !strings.Contains(msg, want) {
			t.Errorf("LockError message does not name %q:\n%s", want, msg)
		}
	}

	// Writes are refused too, with the same error, and change nothing.
	if _, err := m.Persist(stateOf(1)); !errors.As(err, &lockErr) {
		t.Errorf("Persist while locked elsewhere: got %v, want a *LockError", err)
	}
	if _, err := os.Stat(m.Path()); !os.IsNotExist(err) {
		t.Errorf("Persist while locked elsewhere created the state file")
	}

	// Once the child lets go, the lock is ours.
	release()
	unlock, err := m.Lock(context.Background(), LockInfo{}, 5*time.Second)
	if err != nil {
		t.Fatalf("Lock after the child released: %v", err)
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
}

func TestLockReleasedWhenHolderDies(t *testing.T) {
	m := newManager(t)
	cmd, out, _ := startChild(t, "hold-lock", m.Path())
	if !out.Scan() || out.Text() != "locked" {
		t.Fatalf("child did not take the lock: %q", out.Text())
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	unlock, err := m.Lock(context.Background(), LockInfo{}, 5*time.Second)
	if err != nil {
		t.Fatalf("Lock after the holder was killed: %v", err)
	}
	unlock()
}

func TestLockTwiceInOneProcess(t *testing.T) {
	tests := map[string]struct {
		reason string
		second func(t *testing.T, path string) *Filesystem
	}{
		"same manager": {
			reason: "a second Lock call on one manager waits like anyone else",
			second: func(t *testing.T, path string) *Filesystem { return nil },
		},
		"another manager": {
			reason: "flock belongs to the open file, so a second manager in the same process conflicts",
			second: func(t *testing.T, path string) *Filesystem { return NewFilesystem(path) },
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			m := newManager(t)
			unlock, err := m.Lock(context.Background(), LockInfo{ID: "first", Operation: "OperationTypeApply"}, 0)
			if err != nil {
				t.Fatal(err)
			}
			other := tc.second(t, m.Path())
			if other == nil {
				other = m
			}
			_, err = other.Lock(context.Background(), LockInfo{}, 50*time.Millisecond)
			var lockErr *LockError
			if !errors.As(err, &lockErr) || lockErr.Holder == nil || lockErr.Holder.ID != "first" {
				t.Fatalf("second Lock: got %v, want a LockError naming holder \"first\" (%s)", err, tc.reason)
			}
			if err := unlock(); err != nil {
				t.Fatal(err)
			}
			if err := unlock(); err != nil {
				t.Errorf("second unlock: %v, want no-op", err)
			}
			unlock2, err := other.Lock(context.Background(), LockInfo{}, 0)
			if err != nil {
				t.Fatalf("Lock after unlock: %v", err)
			}
			unlock2()
		})
	}
}

func TestLockContextCancelled(t *testing.T) {
	m := newManager(t)
	unlock, err := m.Lock(context.Background(), LockInfo{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = NewFilesystem(m.Path()).Lock(ctx, LockInfo{}, time.Hour)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Lock with a cancelled context: got %v, want context.Canceled", err)
	}
}

func TestUnlockRemovesLockFile(t *testing.T) {
	m := newManager(t)
	unlock, err := m.Lock(context.Background(), LockInfo{Operation: "OperationTypeApply"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := readLockInfo(m.lockPath)
	if info == nil || info.Operation != "OperationTypeApply" || info.Path != m.Path() || info.ID == "" || info.Who == "" {
		t.Errorf("lock file holds %+v, want the filled-in info", info)
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(m.lockPath); !os.IsNotExist(err) {
		t.Errorf("lock file %s still exists after unlock", m.lockPath)
	}
}
