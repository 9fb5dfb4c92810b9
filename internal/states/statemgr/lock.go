package statemgr

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Lock takes the state lock, waiting up to timeout for another holder to
// release it (0 tries once). The lock excludes every other Filesystem for
// the same path, in this process or another, and the kernel releases it if
// the process dies, so a crashed run never leaves a stale lock behind.
//
// info describes this holder; Lock fills in ID (when empty), Who (when
// empty), Created and Path, and writes it to the lock file for others to
// read. On failure the error is a *LockError naming the holder.
//
// unlock releases the lock. It fails while an apply started with
// BeginApply is still open, because the journal relies on the lock.
// Calling it again is a no-op.
func (m *Filesystem) Lock(ctx context.Context, info LockInfo, timeout time.Duration) (unlock func() error, err error) {
	if err := checkStatePath(m.path); err != nil {
		return nil, err
	}
	f, err := acquire(ctx, m.lockPath, m.path, timeout)
	if err != nil {
		return nil, err
	}
	info.fill(m.path, time.Now())
	if err := writeLockInfo(f.info, &info); err != nil {
		f.release(m.lockPath, m.path)
		return nil, fmt.Errorf("writing lock info %s: %w", m.lockPath, err)
	}
	m.mu.Lock()
	m.lock = f
	m.mu.Unlock()
	return func() error {
		m.mu.Lock()
		defer m.mu.Unlock()
		if m.lock != f {
			return nil
		}
		if m.rec != nil {
			return fmt.Errorf("unlocking state %s: an apply is still recording; close it first", m.path)
		}
		m.lock = nil
		return f.release(m.lockPath, m.path)
	}, nil
}

// checkStatePath reports a state path that cannot name a state file (its
// directory is missing, or it is a directory), so that the error names
// the real cause rather than the lock file beside it.
func checkStatePath(path string) error {
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("the state path %s cannot be used: its directory %s does not exist; create it, or correct the path (backend \"local\" path)", path, dir)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("the state path %s is a directory; it must name a file, such as %s", path, filepath.Join(path, "terraform.tfstate"))
	}
	return nil
}

// acquire waits for the lock, polling with a growing delay until timeout
// or ctx ends. path is the lock info file, statePath the state file.
func acquire(ctx context.Context, path, statePath string, timeout time.Duration) (*heldLock, error) {
	deadline := time.Now().Add(timeout)
	delay := 10 * time.Millisecond
	for {
		f, err := acquireOnce(path, statePath)
		if err != nil {
			return nil, &LockError{Err: fmt.Errorf("using lock file %s: %w", path, err)}
		}
		if f != nil {
			return f, nil
		}
		remaining := time.Until(deadline)
		if remaining <= 0 {
			return nil, &LockError{Holder: readLockInfo(path), Err: ErrLocked}
		}
		t := time.NewTimer(min(delay, remaining))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, &LockError{Holder: readLockInfo(path), Err: ctx.Err()}
		case <-t.C:
		}
		delay = min(2*delay, 500*time.Millisecond)
	}
}

// acquireOnce tries once to take the lock: the flock on the lock info
// file (Cairn's), then the state file's lock (Terraform's). It returns
// nil, nil when another holder has either. A Terraform holder writes the
// lock info file without flocking it, so Cairn may flock it and then find
// the state file locked; the file is then left as it is, since it
// describes that holder.
func acquireOnce(path, statePath string) (*heldLock, error) {
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, err
		}
		ok, err := tryFlock(f)
		if err != nil || !ok {
			f.Close()
			return nil, err
		}
		// A holder removes the lock file before releasing its flock. If
		// that happened between our open and our flock, we hold a lock on
		// a file nobody else can find, and must start again.
		same, err := stillAt(f, path)
		if err != nil {
			f.Close()
			return nil, err
		}
		if !same {
			f.Close()
			continue
		}
		st, created, err := lockStateFile(statePath)
		if err != nil || st == nil {
			f.Close()
			return nil, err
		}
		return &heldLock{info: f, state: st, createdState: created}, nil
	}
}

func stillAt(f *os.File, path string) (bool, error) {
	held, err := f.Stat()
	if err != nil {
		return false, err
	}
	named, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return os.SameFile(held, named), nil
}

func writeLockInfo(f *os.File, info *LockInfo) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err := f.WriteAt(info.marshal(), 0)
	return err
}

// readLockInfo returns the holder's info, or nil when the file is gone or
// half written.
func readLockInfo(path string) *LockInfo {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var info LockInfo
	if json.Unmarshal(src, &info) != nil {
		return nil
	}
	return &info
}

// holdLocked makes sure m holds the lock for a change to the files,
// taking it without waiting if the caller has not. release gives back a
// lock taken here and does nothing otherwise. m.mu must be held.
func (m *Filesystem) holdLocked(operation string) (release func() error, err error) {
	if m.lock != nil {
		return func() error { return nil }, nil
	}
	if err := checkStatePath(m.path); err != nil {
		return nil, err
	}
	f, err := acquire(context.Background(), m.lockPath, m.path, 0)
	if err != nil {
		return nil, err
	}
	info := LockInfo{Operation: operation, Version: TerraformVersion}
	info.fill(m.path, time.Now())
	if err := writeLockInfo(f.info, &info); err != nil {
		f.release(m.lockPath, m.path)
		return nil, fmt.Errorf("writing lock info %s: %w", m.lockPath, err)
	}
	m.lock = f
	return func() error {
		m.lock = nil
		return f.release(m.lockPath, m.path)
	}, nil
}
