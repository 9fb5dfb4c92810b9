package statemgr

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
	f, err := acquireOnce(m.lockPath, m.path)
	if err != nil {
		return fmt.Errorf("using lock file %s: %w", m.lockPath, err)
	}
	if f != nil {
		if err := f.release(m.lockPath, m.path); err != nil {
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
	// The holder's locks stay on files nobody else can open any more: the
	// removed lock file, and the state file's old inode once a copy has
	// replaced it. The next run creates new ones and takes them.
	if err := os.Remove(m.lockPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("removing lock file %s: %w", m.lockPath, err)
	}
	if err := m.detachStateFile(); err != nil {
		return fmt.Errorf("releasing the state file %s from its holder: %w", m.path, err)
	}
	return nil
}

// detachStateFile gives the state file a new inode with the same content,
// leaving the holder's lock on the old one; an empty file (one a holder
// created to lock it) is simply removed.
func (m *Filesystem) detachStateFile() error {
	target, err := resolveLinks(m.path)
	if err != nil {
		return err
	}
	src, err := os.ReadFile(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case len(src) == 0:
		return os.Remove(target)
	}
	tmp, err := m.fsys.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(src)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = m.fsys.Rename(tmp.Name(), target)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return syncDir(m.fsys, filepath.Dir(target))
}
