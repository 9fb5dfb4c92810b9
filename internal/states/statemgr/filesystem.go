package statemgr

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/google/uuid"
)

// TerraformVersion is the terraform_version Cairn writes into snapshots:
// the Terraform release whose format and semantics it follows, so that
// Terraform reads Cairn's state files as its own.
const TerraformVersion = "1.5.7"

// Filesystem manages one local state file and its backup, lock file and
// apply journal. Its methods are safe for concurrent use.
type Filesystem struct {
	path        string
	backupPath  string
	lockPath    string
	journalPath string
	// fsys is how m writes; tests inject faults through it.
	fsys fileSystem
	// enc encrypts what m writes and decrypts what it reads.
	enc Encryption

	mu sync.Mutex
	// lock is the held lock while m holds it.
	lock *heldLock
	// rec is the apply in progress, if any; it owns the state until Close.
	rec *Recorder
	// last is the snapshot on disk as of the last read or write under the
	// lock, or nil when unknown.
	last *snapshot
}

// snapshot is what m knows about the file on disk.
type snapshot struct {
	// file is a private copy of the snapshot, nil when there is no state.
	file *statefile.File
	// info identifies the file it was read from or written to, nil when
	// there was none; a different info means someone replaced it.
	info fs.FileInfo
	// stale is set when the file is not stored as m's encryption would
	// write it (plaintext, or sealed by a fallback method): the next
	// write re-seals it even if the state is unchanged.
	stale bool
}

// NewFilesystem returns a manager for the state file at path (usually
// terraform.tfstate). Nothing is touched until a method is called.
func NewFilesystem(path string, opts ...Option) *Filesystem {
	dir, base := filepath.Split(path)
	m := &Filesystem{
		path:        path,
		backupPath:  path + ".backup",
		lockPath:    filepath.Join(dir, "."+base+".lock.info"),
		journalPath: path + ".journal",
		fsys:        osFS{},
		enc:         noEncryption,
	}
	for _, o := range opts {
		o(m)
	}
	return m
}

// Path returns the state file's path.
func (m *Filesystem) Path() string { return m.path }

// StoredAt lists the files that hold the state: the state file and a
// crashed apply's journal, each when it exists. Both hold the complete
// state, sensitive values included (the journal holds what the snapshot
// lacked), so whoever moves the state elsewhere must know of both.
func (m *Filesystem) StoredAt() ([]string, error) {
	var out []string
	for _, p := range []string{m.path, m.journalPath} {
		_, err := os.Lstat(p)
		switch {
		case err == nil:
			out = append(out, p)
		case !errors.Is(err, fs.ErrNotExist):
			return nil, err
		}
	}
	return out, nil
}

var errApplyOpen = errors.New("an apply started with BeginApply is still open; use Recorder.State, or Close it first")

// Read returns the current state: the snapshot plus, if an apply crashed
// (or is running), every object its journal recorded. It returns nil (and
// no error) when no state exists, including when the state file is empty.
//
// Read never writes and takes no lock, so that reading never makes
// another run's Lock fail and a read-only command never changes state.
// A crashed apply's journal is replayed in memory; the result carries the
// serial its snapshot will have once written (one above the journal's
// base), so that a plan made from it matches the state after recovery.
// The next write (Persist, BeginApply, Recover) folds the journal into
// the state file.
//
// A corrupt state file or journal is an error naming the file; a journal
// damaged before its end is a *JournalDamageError.
func (m *Filesystem) Read() (*statefile.File, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.rec != nil {
		return nil, fmt.Errorf("reading state %s: %w", m.path, errApplyOpen)
	}
	return m.load(false)
}

// Persist writes s as the new snapshot, replacing the state file
// atomically and keeping the previous snapshot as the backup. The serial
// goes up by one only if s differs from the snapshot on disk; otherwise
// nothing is written, unless the file is not stored as the encryption
// writes it (see snapshot.stale): then it is rewritten, serial unchanged. A state with no snapshot before it gets a new
// lineage and serial 1. It returns the snapshot now on disk.
//
// Persist takes the lock for its duration if the caller does not hold it,
// and fails with a *LockError if another run does.
func (m *Filesystem) Persist(s *states.State) (*statefile.File, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.rec != nil {
		return nil, fmt.Errorf("writing state %s: %w", m.path, errApplyOpen)
	}
	release, err := m.holdLocked("OperationTypeStateWrite")
	if err != nil {
		return nil, err
	}
	defer release()
	prev, err := m.current()
	if err != nil {
		return nil, err
	}
	if prev != nil && sameState(prev.State, s) {
		unchanged := *prev
		unchanged.State = s
		if m.last == nil || !m.last.stale {
			return &unchanged, nil
		}
		// Read through a fallback method (or in plaintext): written
		// back under the primary one, the same snapshot and serial, so
		// that one run completes an encryption migration.
		if err := m.writeSnapshot(&unchanged); err != nil {
			return nil, err
		}
		return &unchanged, nil
	}
	next := &statefile.File{TerraformVersion: TerraformVersion, Serial: 1, Lineage: newLineage(), State: s}
	if prev != nil {
		next.Serial, next.Lineage = prev.Serial+1, prev.Lineage
	}
	if err := m.writeSnapshot(next); err != nil {
		return nil, err
	}
	return next, nil
}

// current returns the snapshot on disk, from m.last when the file is
// provably the one m last saw and no journal waits, else by reading (and
// recovering). The lock must be held.
func (m *Filesystem) current() (*statefile.File, error) {
	if m.last != nil && m.unchangedOnDisk() {
		return m.last.file, nil
	}
	return m.load(true)
}

func (m *Filesystem) unchangedOnDisk() bool {
	if _, err := os.Lstat(m.journalPath); !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	fi, err := os.Stat(m.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return m.last.info == nil
	case err != nil || m.last.info == nil:
		return false
	}
	// Cairn replaces the file, so a new snapshot is a new inode; other
	// writers (Terraform) rewrite in place, which changes size or time.
	return os.SameFile(fi, m.last.info) && fi.Size() == m.last.info.Size() && fi.ModTime().Equal(m.last.info.ModTime())
}

// writeSnapshot replaces the state file with f and remembers it. The lock
// must be held.
func (m *Filesystem) writeSnapshot(f *statefile.File) error {
	src, err := statefile.Marshal(f)
	if err != nil {
		return fmt.Errorf("writing state %s: %w", m.path, err)
	}
	if src, err = m.enc.Encrypt(src); err != nil {
		return fmt.Errorf("writing state %s: %w", m.path, err)
	}
	if err := m.replaceLocked(src); err != nil {
		return fmt.Errorf("writing state %s: %w", m.path, err)
	}
	fi, err := os.Stat(m.path)
	if err != nil {
		return fmt.Errorf("writing state %s: %w", m.path, err)
	}
	m.last = &snapshot{file: copyFile(f), info: fi}
	return nil
}

// replaceLocked replaces the state file with src. While m holds the lock,
// the new file is locked before it takes the state file's name, so that
// Terraform never finds the state file unlocked mid-run.
func (m *Filesystem) replaceLocked(src []byte) error {
	if m.lock == nil {
		return replaceFile(m.fsys, m.path, m.backupPath, src, m.resealBackup(), nil)
	}
	var next *os.File
	err := replaceFile(m.fsys, m.path, m.backupPath, src, m.resealBackup(), func(tmp string) error {
		f, err := lockNewState(tmp)
		next = f
		return err
	})
	if next == nil {
		return err
	}
	// The rename may have happened even if a later step (syncing the
	// directory) failed: the lock follows whichever file is in place.
	if same, serr := stillAt(next, m.path); serr == nil && same {
		m.lock.replaceState(next)
	} else {
		next.Close()
	}
	return err
}

// newLineage returns the lineage of a new state: a random UUID, as
// Terraform uses.
func newLineage() string { return uuid.NewString() }

// copyFile returns f with a state m can keep while the caller goes on
// changing its own.
func copyFile(f *statefile.File) *statefile.File {
	if f == nil {
		return nil
	}
	c := *f
	c.State = f.State.DeepCopy()
	if c.State == nil {
		c.State = states.NewState()
	}
	return &c
}
