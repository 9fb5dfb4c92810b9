package statemgr

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/cairn-iac/cairn/internal/states/statefile"
)

// Recovery says what Recover did.
type Recovery struct {
	// Records counts the journal records folded into the state.
	Records int
	// Damaged is where a damaged journal was moved, "" if there was none.
	Damaged string
	// Salvaged counts the records after the damage folded in too, and
	// KeptRemoved the removals among them left out (the objects stay in
	// state until a refresh finds them gone).
	Salvaged, KeptRemoved int
	// Unusable counts the lines of a damaged journal from the damage on
	// that could not be used (unreadable, or repeating a record), and
	// Missing the records absent from its sequence; the journal is kept
	// at Damaged.
	Unusable, Missing int
}

// Recover folds a crashed apply's journal into the state file now, under
// the lock (taken without waiting if the caller does not hold it). A
// journal damaged before its end (see JournalDamageError) is refused
// unless acceptLoss is set: then the records before the damage, and the
// whole records after it (see salvage), are folded in and the journal is
// renamed to JournalPath()+".damaged-<time>" rather
// than removed, so that its unreadable part can still be inspected.
func (m *Filesystem) Recover(acceptLoss bool) (*Recovery, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.rec != nil {
		return nil, fmt.Errorf("recovering state %s: %w", m.path, errApplyOpen)
	}
	release, err := m.holdLocked("OperationTypeStateRecover")
	if err != nil {
		return nil, err
	}
	defer release()
	snap, info, _, err := readSnapshot(m.path, m.enc)
	if err != nil {
		return nil, err
	}
	j, err := readJournal(m.journalPath, m.enc)
	if err != nil || j == nil {
		return &Recovery{}, err
	}
	status, err := classify(snap, j)
	if err != nil {
		return nil, fmt.Errorf("state %s and its journal %s disagree: %w", m.path, m.journalPath, err)
	}
	if status == journalStale {
		return &Recovery{}, removeJournal(m.journalPath)
	}
	if j.damage == nil {
		_, err := m.fold(snap, info, j)
		return &Recovery{Records: len(j.records)}, err
	}
	if !acceptLoss {
		return nil, &JournalDamageError{Path: m.journalPath, journalDamage: *j.damage, Kept: len(j.records)}
	}
	return m.foldDamaged(snap, j)
}

// foldDamaged writes the snapshot with the readable records of a damaged
// journal, before and after the damage, and moves the journal aside.
func (m *Filesystem) foldDamaged(snap *statefile.File, j *journal) (*Recovery, error) {
	out := &Recovery{Records: len(j.records), Salvaged: len(j.salvaged), Unusable: 1 + j.damage.After - j.damage.Salvaged, Missing: j.damage.Missing,
		Damaged: m.journalPath + ".damaged-" + time.Now().UTC().Format("20060102T150405Z")}
	recovered := j.replay(snap)
	out.KeptRemoved = j.replaySalvaged(recovered.State)
	recovered.Serial = j.header.BaseSerial + 1
	// The copy set aside is durable before the snapshot that makes the
	// journal stale is written: once it is, the next command would remove
	// the journal, and its unreadable part must survive for inspection.
	if err := m.copyJournalTo(out.Damaged); err != nil {
		return nil, err
	}
	if err := m.writeSnapshot(recovered); err != nil {
		return nil, fmt.Errorf("recovering from journal %s: %w", m.journalPath, err)
	}
	if err := removeJournal(m.journalPath); err != nil {
		return nil, err
	}
	return out, nil
}

// copyJournalTo copies the journal to aside durably (the file and its
// directory entry).
func (m *Filesystem) copyJournalTo(aside string) error {
	if err := copyInto(m.fsys, m.journalPath, aside); err != nil {
		return fmt.Errorf("setting the journal aside as %s: %w", aside, err)
	}
	if err := syncDir(m.fsys, filepath.Dir(m.journalPath)); err != nil {
		return fmt.Errorf("setting the journal aside as %s: %w", aside, err)
	}
	return nil
}

// copyJournalAside copies the journal, if there is one, to
// JournalPath()+"."+why+"-<time>", for a snapshot about to replace the
// state it belongs to; the caller removes it once that is written.
func (m *Filesystem) copyJournalAside(why string) (bool, error) {
	if _, err := os.Lstat(m.journalPath); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return true, m.copyJournalTo(m.journalPath + "." + why + "-" + time.Now().UTC().Format("20060102T150405Z"))
}
