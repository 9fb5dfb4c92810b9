package statemgr

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/cairn-iac/cairn/internal/states/statefile"
)

// load reads the snapshot and any journal beside it. With recover set
// (the lock is held by m, and the caller is about to write) it also
// brings the files up to date: a crashed apply's journal becomes a new
// snapshot and is removed, a stale journal is removed. Without it, load
// changes nothing. The result is remembered only when it is what the
// disk holds.
func (m *Filesystem) load(recover bool) (*statefile.File, error) {
	snap, info, stale, err := readSnapshot(m.path, m.enc)
	if err != nil {
		return nil, err
	}
	j, err := readJournal(m.journalPath, m.enc)
	if err != nil {
		return nil, err
	}
	if j == nil {
		if recover {
			m.last = &snapshot{file: copyFile(snap), info: info, stale: stale}
		}
		return snap, nil
	}
	status, err := classify(snap, j)
	if err != nil {
		return nil, fmt.Errorf("state %s and its journal %s disagree: %w", m.path, m.journalPath, err)
	}
	if status == journalStale {
		if recover {
			if err := removeJournal(m.journalPath); err != nil {
				return nil, err
			}
			m.last = &snapshot{file: copyFile(snap), info: info, stale: stale}
		}
		return snap, nil
	}
	if j.damage != nil {
		return nil, &JournalDamageError{Path: m.journalPath, journalDamage: *j.damage, Kept: len(j.records)}
	}
	if !recover {
		return m.replayInMemory(snap, j), nil
	}
	return m.fold(snap, info, j)
}

// replayInMemory is the state a crashed apply left, without writing it.
// When m holds the lock, no apply is running, so the journal is a crashed
// one and the result gets the serial that recovery will write: a plan
// made from it stays valid. Otherwise the journal may be a running
// apply's, whose final snapshot will differ; the base serial keeps a plan
// made from this view from ever matching it.
func (m *Filesystem) replayInMemory(snap *statefile.File, j *journal) *statefile.File {
	out := j.replay(snap)
	if m.lock != nil && len(j.records) > 0 {
		out.Serial = j.header.BaseSerial + 1
	}
	return out
}

// fold finishes a crashed apply: the snapshot with the journal replayed
// is written (serial one above the base) and the journal removed.
func (m *Filesystem) fold(snap *statefile.File, info fs.FileInfo, j *journal) (*statefile.File, error) {
	recovered := j.replay(snap)
	if len(j.records) > 0 {
		recovered.Serial = j.header.BaseSerial + 1
		if err := m.writeSnapshot(recovered); err != nil {
			return nil, fmt.Errorf("recovering from journal %s: %w", m.journalPath, err)
		}
	} else {
		m.last = &snapshot{file: copyFile(snap), info: info}
		recovered = snap
	}
	if err := removeJournal(m.journalPath); err != nil {
		return nil, err
	}
	return recovered, nil
}

// readSnapshot reads the state file, decrypting it with enc: nil when it
// does not exist or is empty (Terraform leaves an empty one behind when it
// locks a new state). info is nil only when the file does not exist.
func readSnapshot(path string, enc Encryption) (_ *statefile.File, _ fs.FileInfo, stale bool, _ error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, false, nil
	}
	if err != nil {
		return nil, nil, false, fmt.Errorf("reading state %s: %w", path, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, false, fmt.Errorf("reading state %s: %w", path, err)
	}
	if info.IsDir() {
		return nil, nil, false, checkStatePath(path)
	}
	src, err := io.ReadAll(f)
	if err != nil {
		return nil, nil, false, fmt.Errorf("reading state %s: %w", path, err)
	}
	stale = !storedCurrent(enc, src)
	if src, err = enc.Decrypt(src); err != nil {
		return nil, nil, false, &UnreadableError{Where: path, Err: err}
	}
	// An empty file is no state, as in Terraform (whose init leaves
	// terraform.tfstate empty after migrating it to a backend).
	sf, err := statefile.Read(bytes.NewReader(src))
	if errors.Is(err, statefile.ErrNoState) {
		return nil, info, false, nil
	}
	if err != nil {
		return nil, nil, false, &UnreadableError{Where: path, Err: err}
	}
	return sf, info, stale, nil
}

// journalStatus is how a journal relates to the snapshot beside it.
type journalStatus int

const (
	// journalPending: the journal's records are not in the snapshot yet
	// (the apply is running, or crashed).
	journalPending journalStatus = iota
	// journalStale: the apply's final snapshot landed; only removing the
	// journal was left undone.
	journalStale
)

// classify decides between pending and stale from the journal header's
// record of the snapshot the apply started from. Anything else means the
// files were mixed up or edited, and is an error: replaying would be
// guesswork.
func classify(snap *statefile.File, j *journal) (journalStatus, error) {
	h := j.header
	if !j.complete {
		// The header never became durable, so no record was acknowledged.
		return journalStale, nil
	}
	if snap == nil {
		if h.BaseExists {
			return 0, fmt.Errorf("the journal continues serial %d of lineage %s, but there is no state snapshot", h.BaseSerial, h.Lineage)
		}
		return journalPending, nil
	}
	switch {
	case snap.Lineage != h.Lineage:
		return 0, fmt.Errorf("the journal belongs to lineage %s, the state to lineage %s", h.Lineage, snap.Lineage)
	case !h.BaseExists:
		// The apply started from no state and created this lineage, so
		// the snapshot is the one its Close wrote.
		return journalStale, nil
	case h.BaseSerial == snap.Serial:
		return journalPending, nil
	case h.BaseSerial < snap.Serial:
		return journalStale, nil
	default:
		return 0, fmt.Errorf("the journal continues serial %d, but the state has the older serial %d; "+
			"was the state file replaced by an older copy?", h.BaseSerial, snap.Serial)
	}
}
