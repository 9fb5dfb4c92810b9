package statemgr

import (
	"fmt"
	"time"

	"github.com/cairn-iac/cairn/internal/states/statefile"
)

// Recovery says what Recover did.
type Recovery struct {
	// Records counts the journal records folded into the state.
	Records int
	// Damaged is where a damaged journal was moved, "" if there was none.
	Damaged string
	// Lost counts the unreadable lines of a damaged journal, left in the
	// file at Damaged.
	Lost int
}

// Recover folds a crashed apply's journal into the state file now, under
// the lock (taken without waiting if the caller does not hold it). A
// journal damaged before its end (see JournalDamageError) is refused
// unless acceptLoss is set: then the records before the damage are folded
// in and the journal is renamed to JournalPath()+".damaged-<time>" rather
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
	snap, info, err := readSnapshot(m.path)
	if err != nil {
		return nil, err
	}
	j, err := readJournal(m.journalPath)
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
// journal and moves the journal aside.
func (m *Filesystem) foldDamaged(snap *statefile.File, j *journal) (*Recovery, error) {
	out := &Recovery{Records: len(j.records), Lost: j.damage.After + 1,
		Damaged: m.journalPath + ".damaged-" + time.Now().UTC().Format("20060102T150405Z")}
	recovered := j.replay(snap)
	recovered.Serial = j.header.BaseSerial + 1
	if err := m.writeSnapshot(recovered); err != nil {
		return nil, fmt.Errorf("recovering from journal %s: %w", m.journalPath, err)
	}
	if err := m.fsys.Rename(m.journalPath, out.Damaged); err != nil {
		return nil, fmt.Errorf("moving the damaged journal aside: %w", err)
	}
	return out, nil
}
