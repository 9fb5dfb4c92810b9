package statemgr

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// heldLock is the lock as held: Cairn's flock on the lock info file, and
// Terraform's lock on the state file itself (see tryStateLock), so that
// Cairn excludes other Cairn runs and Terraform alike.
type heldLock struct {
	// info is the flocked lock info file.
	info *os.File
	// state is the locked state file; after each snapshot it is the new
	// file, locked before it was renamed into place.
	state *os.File
	// createdState is set when the state file did not exist and locking
	// created it (empty, as Terraform does); release removes it if it is
	// still empty.
	createdState bool
}

// lockStateFile opens (creating if needed) and locks the state file at
// path. It returns nil, false, nil when someone else (Terraform) holds it.
func lockStateFile(path string) (f *os.File, created bool, err error) {
	_, statErr := os.Stat(path)
	created = errors.Is(statErr, fs.ErrNotExist)
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, false, fmt.Errorf("opening state file %s to lock it: %w", path, err)
	}
	ok, err := tryStateLock(f)
	if err != nil || !ok {
		f.Close()
		if err != nil {
			return nil, false, fmt.Errorf("locking state file %s: %w", path, err)
		}
		return nil, false, nil
	}
	return f, created, nil
}

// lockNewState locks a snapshot written at tmp before it is renamed over
// the state file, so that the state file is never unlocked while held.
func lockNewState(tmp string) (*os.File, error) {
	f, err := os.OpenFile(tmp, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	ok, err := tryStateLock(f)
	if err == nil && !ok {
		err = errors.New("a new snapshot file is locked by someone else")
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking new snapshot %s: %w", tmp, err)
	}
	return f, nil
}

// replaceState makes next the locked state file, dropping the lock on
// the file it replaced.
func (l *heldLock) replaceState(next *os.File) {
	if l.state != nil {
		l.state.Close()
	}
	l.state, l.createdState = next, false
}

// release removes the lock info file (if it is still ours) while still
// holding both locks (see acquireOnce), removes a state file that locking created and nobody
// wrote, then lets both locks go.
func (l *heldLock) release(lockPath, statePath string) error {
	var rmErr error
	// After a force-unlock the name belongs to the next holder.
	if same, err := stillAt(l.info, lockPath); err != nil || same {
		rmErr = os.Remove(lockPath)
	}
	if l.state != nil {
		if l.createdState {
			removeIfEmpty(l.state, statePath)
		}
		l.state.Close()
	}
	closeErr := l.info.Close()
	if rmErr != nil && !errors.Is(rmErr, fs.ErrNotExist) {
		return fmt.Errorf("removing lock file %s: %w", lockPath, rmErr)
	}
	if closeErr != nil {
		return fmt.Errorf("releasing lock file %s: %w", lockPath, closeErr)
	}
	return nil
}

// removeIfEmpty removes path when it is still the empty file f.
func removeIfEmpty(f *os.File, path string) {
	fi, err := f.Stat()
	if err != nil || fi.Size() != 0 {
		return
	}
	if same, err := stillAt(f, path); err == nil && same {
		os.Remove(path)
	}
}

// Close drops both locks without any cleanup, as the kernel does when the
// holder dies.
func (l *heldLock) Close() error {
	if l.state != nil {
		l.state.Close()
	}
	return l.info.Close()
}
