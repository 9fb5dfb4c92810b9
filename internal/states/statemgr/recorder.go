package statemgr

import (
	"errors"
	"fmt"
	"sync"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
)

// Recorder owns the live state during an apply. The apply engine reports
// each finished resource instance to it; each report is durable in the
// journal before the call returns, so a crash loses nothing the engine was
// told was saved, while the state file itself is rewritten once, by Close.
type Recorder struct {
	m       *Filesystem
	journal *journalWriter
	header  journalHeader
	// releaseLock gives back a lock BeginApply took itself.
	releaseLock func() error

	mu      sync.Mutex
	state   *states.State
	changed bool
	closed  bool
}

// NotDurableError is Close's error when neither the final snapshot nor
// the journal could be written: some changes exist only in memory, and
// the caller must save Recorder.State somewhere else (Terraform writes
// errored.tfstate) or show it.
type NotDurableError struct {
	Snapshot, Journal error
}

func (e *NotDurableError) Error() string {
	return fmt.Sprintf("%v; the journal could not hold every change either (%v), so some are only in memory", e.Snapshot, e.Journal)
}

func (e *NotDurableError) Unwrap() []error { return []error{e.Snapshot, e.Journal} }

// ErrRecorderClosed is returned by Recorder methods after Close.
var ErrRecorderClosed = errors.New("the apply recorder is closed")

// BeginApply starts recording an apply on top of base, the snapshot the
// plan was made against, as Read returned it (nil when there was no
// state). It fails if the snapshot on disk is no longer base's serial and
// lineage: applying a plan to a state that changed underneath would lose
// the other change. If base's State was changed in memory since (a
// refresh), it is first written as a snapshot of its own, because crash
// recovery replays the journal on top of the snapshot on disk.
//
// The lock is needed for the whole apply; if the caller does not hold it,
// BeginApply takes it without waiting and Close releases it.
func (m *Filesystem) BeginApply(base *statefile.File) (*Recorder, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.rec != nil {
		return nil, fmt.Errorf("starting apply on %s: %w", m.path, errApplyOpen)
	}
	release, err := m.holdLocked("OperationTypeApply")
	if err != nil {
		return nil, err
	}
	rec, err := m.beginApply(base)
	if err != nil {
		release()
		return nil, err
	}
	rec.releaseLock = release
	m.rec = rec
	return rec, nil
}

func (m *Filesystem) beginApply(base *statefile.File) (*Recorder, error) {
	cur, err := m.current()
	if err != nil {
		return nil, err
	}
	if err := checkBase(base, cur); err != nil {
		return nil, fmt.Errorf("starting apply on %s: %w", m.path, err)
	}
	if cur != nil && !sameState(cur.State, base.State) {
		// The caller changed base in memory (a refresh, say). Replaying the
		// journal after a crash starts from the snapshot on disk, so that
		// snapshot must be base, or recovery and Close would disagree.
		next := &statefile.File{TerraformVersion: TerraformVersion, Serial: cur.Serial + 1, Lineage: cur.Lineage, State: base.State}
		if err := m.writeSnapshot(next); err != nil {
			return nil, err
		}
		cur = m.last.file
	}
	h := journalHeader{Lineage: newLineage(), BaseExists: cur != nil}
	state := states.NewState()
	if cur != nil {
		h.Lineage, h.BaseSerial = cur.Lineage, cur.Serial
		state = cur.State.DeepCopy()
	}
	w, err := createJournal(m.fsys, m.journalPath, h)
	if err != nil {
		return nil, err
	}
	return &Recorder{m: m, journal: w, header: h, state: state}, nil
}

// checkBase reports whether the snapshot the caller planned against is
// the one on disk.
func checkBase(base, cur *statefile.File) error {
	switch {
	case base == nil && cur == nil:
		return nil
	case base == nil:
		return fmt.Errorf("a state exists (serial %d); the apply must start from it", cur.Serial)
	case cur == nil:
		return fmt.Errorf("the state (serial %d of lineage %s) no longer exists", base.Serial, base.Lineage)
	case base.Lineage != cur.Lineage || base.Serial != cur.Serial:
		return fmt.Errorf("the state changed since it was read: it is now serial %d of lineage %s, not serial %d of lineage %s",
			cur.Serial, cur.Lineage, base.Serial, base.Lineage)
	}
	return nil
}

// SetObject records obj as the object at addr (an instance's current
// object, or a deposed one), managed by provider; a nil obj records its removal.
// It returns once the change is durable. Safe for concurrent use:
// concurrent calls share syncs. obj must not be modified afterwards.
//
// If the journal cannot be written the change is still kept in memory, so
// that Close can save it in the final snapshot, and the error says the
// change is not yet durable.
func (r *Recorder) SetObject(addr addrs.AbsResourceInstanceObject, obj *states.ObjectSrc, provider addrs.AbsProviderConfig) error {
	rec := statefile.ObjectRecord{Addr: addr.ResourceInstance, Deposed: addr.DeposedKey, Provider: provider, Object: obj}
	line, err := encodeObjectBody(&rec)
	if err != nil {
		return fmt.Errorf("recording %s: %w", addr, err)
	}
	seq, err := r.record(line, func(s *states.State) { rec.Apply(s) })
	if err != nil {
		return fmt.Errorf("recording %s: %w", addr, err)
	}
	if err := r.journal.wait(seq); err != nil {
		return fmt.Errorf("recording %s: %w", addr, err)
	}
	return nil
}

// SetOutput records the new value of a root output, or its removal when
// v is nil, durably like SetObject.
func (r *Recorder) SetOutput(name string, v *states.OutputValue) error {
	rec := statefile.OutputRecord{Name: name, Value: v}
	line, err := encodeOutputBody(&rec)
	if err != nil {
		return fmt.Errorf("recording output %q: %w", name, err)
	}
	seq, err := r.record(line, func(s *states.State) { rec.Apply(s) })
	if err != nil {
		return fmt.Errorf("recording output %q: %w", name, err)
	}
	if err := r.journal.wait(seq); err != nil {
		return fmt.Errorf("recording output %q: %w", name, err)
	}
	return nil
}

// record applies a change and queues its line under one lock, so that the
// journal's order is the order the changes were made in.
func (r *Recorder) record(line []byte, apply func(*states.State)) (uint64, error) {
	// Encrypting outside the lock keeps concurrent workers from queueing
	// behind one another's AES-GCM.
	sealed, serr := r.m.sealRecord(line)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return 0, ErrRecorderClosed
	}
	apply(r.state)
	r.changed = true
	if serr != nil {
		// As with a failed write, the change stays in memory for Close,
		// and the journal stops acknowledging: a record missing from the
		// middle must never look durable.
		return 0, r.journal.fail(fmt.Errorf("encrypting a journal record: %w", serr))
	}
	return r.journal.append(sealed), nil
}

// State returns a copy of the live state, for readers during the apply.
func (r *Recorder) State() *states.State {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.state.DeepCopy()
}

// Snapshot returns the live state as the snapshot Close writes (serial
// one above the base), for a caller that must save it elsewhere after
// Close failed with a NotDurableError.
func (r *Recorder) Snapshot() *statefile.File {
	return &statefile.File{TerraformVersion: TerraformVersion, Serial: r.header.BaseSerial + 1, Lineage: r.header.Lineage, State: r.State()}
}

// Close ends the apply: it writes the final state as one snapshot (serial
// one above the base, if anything changed), removes the journal and
// releases a lock BeginApply took. Call it after every SetObject and
// SetOutput has returned. It returns the snapshot now on disk, nil if
// there is still no state.
//
// If the snapshot cannot be written the journal stays, so that the next
// Read recovers every recorded change, and the error says so.
func (r *Recorder) Close() (*statefile.File, error) {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil, ErrRecorderClosed
	}
	r.closed = true
	r.mu.Unlock()
	return r.m.finishApply(r)
}

func (m *Filesystem) finishApply(r *Recorder) (out *statefile.File, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	defer func() {
		m.rec = nil
		if relErr := r.releaseLock(); relErr != nil && err == nil {
			err = relErr
		}
	}()
	// A journal failure does not matter any more: the snapshot below
	// holds every change, journaled or not.
	_ = r.journal.flush()
	if !r.changed {
		r.journal.close()
		return copyFile(m.last.file), removeJournal(m.journalPath)
	}
	out = &statefile.File{TerraformVersion: TerraformVersion, Serial: r.header.BaseSerial + 1, Lineage: r.header.Lineage, State: r.state}
	if err := m.writeSnapshot(out); err != nil {
		r.journal.close()
		if jerr := r.journal.failure(); jerr != nil {
			return nil, &NotDurableError{Snapshot: err, Journal: jerr}
		}
		return nil, fmt.Errorf("%w; the journal %s keeps every change and the next command will recover them", err, m.journalPath)
	}
	r.journal.close()
	return out, removeJournal(m.journalPath)
}
