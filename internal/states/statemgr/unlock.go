package statemgr

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ErrNotLocked means ForceUnlock found nobody holding the lock.
var ErrNotLocked = errors.New("LocalState not locked")

// ForceUnlock breaks the lock another run holds, when id is the ID in
// its lock info: a run that hangs while holding the lock (a crashed one
// has already lost it) would otherwise block every other run until it is
// killed. The holder is not told; if it goes on writing, its changes may
// be lost, which is why the caller must name the lock it breaks.
//
// The error is ErrNotLocked when nobody holds the lock; when id does not
// match, it names the holder.
func (m *Filesystem) ForceUnlock(id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.lock != nil {
		return fmt.Errorf("unlocking state %s: this run holds the lock itself", m.path)
	}
	if err := checkStatePath(m.path); err != nil {
		return err
	}
	f, err := acquireOnce(m.lockPath)
	if err != nil {
		return fmt.Errorf("using lock file %s: %w", m.lockPath, err)
	}
	if f != nil {
		if err := releaseLockFile(f, m.lockPath); err != nil {
			return err
		}
		return ErrNotLocked
	}
	holder := readLockInfo(m.lockPath)
	if holder == nil {
		return fmt.Errorf("invalid lock id: %q. the holder's lock info %s could not be read; try again", id, m.lockPath)
	}
	if holder.ID != id {
		return fmt.Errorf("invalid lock id: %q. current id: %q\nLock Info:\n%s", id, holder.ID, holder)
	}
	// The holder's flock stays on the removed file, which nobody else can
	// open: the next run creates a new lock file and takes it.
	if err := os.Remove(m.lockPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("removing lock file %s: %w", m.lockPath, err)
	}
	return nil
}
