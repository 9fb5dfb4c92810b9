package statemgr

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
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
	// The holder created the state file empty when it locked it, as
	// Terraform does; nothing may have been written to it.
	if fi, err := os.Stat(m.Path()); err == nil && fi.Size() != 0 {
		t.Errorf("Persist while locked elsewhere wrote the state file")
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

func TestLockErrorMessage(t *testing.T) {
	holder := &LockInfo{ID: "abc", Who: "someone@host"}
	tests := map[string]struct {
		reason    string
		err       *LockError
		contended bool
		want      []string
		wantNot   []string
	}{
		"holder known": {
			err: &LockError{Holder: holder, Err: ErrLocked}, contended: true,
			want: []string{"someone@host", "the run named above"},
		},
		"holder unreadable": {
			reason: "the loser of a race read the lock file while the winner was writing it",
			err:    &LockError{Err: ErrLocked}, contended: true,
			want: []string{"could not be read", "-lock-timeout"}, wantNot: []string{"named above", "Lock Info"},
		},
		"lock file unusable": {
			reason: "not a contended lock: no advice about waiting",
			err:    &LockError{Err: fs.ErrPermission}, want: []string{"permission denied"},
			wantNot: []string{"Wait", "named above", "only one run"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			msg := tc.err.Error()
			if got := tc.err.Contended(); got != tc.contended {
				t.Errorf("Contended() = %v, want %v", got, tc.contended)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message lacks %q (%s):\n%s", w, tc.reason, msg)
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(msg, w) {
					t.Errorf("message has %q (%s):\n%s", w, tc.reason, msg)
				}
			}
		})
	}
}

func TestLockBadStatePath(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "state.tfstate"), 0o700); err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		path string
		want string
	}{
		"missing directory": {path: filepath.Join(dir, "missing", "terraform.tfstate"), want: "does not exist"},
		"a directory":       {path: filepath.Join(dir, "state.tfstate"), want: "is a directory"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			m := NewFilesystem(tc.path)
			_, err := m.Lock(t.Context(), LockInfo{}, 0)
			var le *LockError
			if err == nil || errors.As(err, &le) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Lock: got %v, want a path error saying %q", err, tc.want)
			}
			if _, err := m.Persist(stateOf(1)); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Persist: got %v, want a path error saying %q", err, tc.want)
			}
		})
	}
}
