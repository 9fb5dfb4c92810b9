package applyjournal

import (
	"fmt"
	"sync"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

// Live is the half of a backend's apply recorder that does not depend on
// where the journal is kept: the live state, changed one record at a
// time, and the GroupWriter the records are queued on. A backend's
// Recorder embeds it and adds Close, which writes the final snapshot its
// own way; one copy of these rules keeps the backends' journals from
// drifting apart.
type Live struct {
	header    Header
	transform statemgr.Encryption
	w         *GroupWriter

	mu      sync.Mutex
	state   *states.State
	changed bool
	closed  bool
}

// NewLive starts the live state of an apply from cur (nil: no stored
// state) under header h, sealing records with t and queueing them on w.
func NewLive(h Header, cur *statefile.File, t statemgr.Encryption, w *GroupWriter) *Live {
	state := states.NewState()
	if cur != nil {
		state = cur.State.DeepCopy()
	}
	return &Live{header: h, transform: t, w: w, state: state}
}

// StartHeader is the header of an apply on top of cur (nil: no stored
// state), lineage being the one a first snapshot takes.
func StartHeader(format, lineage string, cur *statefile.File) Header {
	h := Header{Format: format, Lineage: lineage, BaseExists: cur != nil}
	if cur != nil {
		h.Lineage, h.BaseSerial = cur.Lineage, cur.Serial
	}
	return h
}

// OnFailure registers stop, called once if the journal cannot be written
// any more.
func (l *Live) OnFailure(stop func()) { l.w.OnFailure(stop) }

// SetObject records obj at addr durably (see statemgr.Recorder.SetObject).
func (l *Live) SetObject(addr addrs.AbsResourceInstanceObject, obj *states.ObjectSrc, provider addrs.AbsProviderConfig) error {
	wait, err := l.SetObjectAsync(addr, obj, provider)
	if err != nil {
		return err
	}
	return wait()
}

// SetObjectAsync records obj at once and returns the wait for its
// journal commit.
func (l *Live) SetObjectAsync(addr addrs.AbsResourceInstanceObject, obj *states.ObjectSrc, provider addrs.AbsProviderConfig) (func() error, error) {
	rec := ObjectRecord(addr, obj, provider)
	seq, err := l.record(&rec)
	if err != nil {
		return nil, fmt.Errorf("recording %s: %w", addr, err)
	}
	return func() error {
		if err := l.w.Wait(seq); err != nil {
			return fmt.Errorf("recording %s: %w", addr, err)
		}
		return nil
	}, nil
}

// SetOutput records a root output's value (nil: its removal) durably.
func (l *Live) SetOutput(name string, v *states.OutputValue) error {
	rec := OutputRecord(name, v)
	seq, err := l.record(&rec)
	if err == nil {
		err = l.w.Wait(seq)
	}
	if err != nil {
		return fmt.Errorf("recording output %q: %w", name, err)
	}
	return nil
}

// record applies a change and queues it under one lock, so that the
// journal's order is the order of the changes. Sealing happens before
// the lock, so that concurrent records seal in parallel.
func (l *Live) record(rec *Record) (uint64, error) {
	stored, err := rec.Encode(l.transform)
	if err != nil {
		return 0, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return 0, statemgr.ErrRecorderClosed
	}
	rec.Apply(l.state)
	l.changed = true
	return l.w.Append(string(stored)), nil
}

// State returns a copy of the live state.
func (l *Live) State() *states.State {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.state.DeepCopy()
}

// Snapshot is the live state as the snapshot Close writes: one serial
// above the apply's base, in its lineage.
func (l *Live) Snapshot() *statefile.File {
	return &statefile.File{TerraformVersion: statemgr.TerraformVersion, Serial: l.header.BaseSerial + 1, Lineage: l.header.Lineage, State: l.State()}
}

// Finish stops recording and waits for the journal writer: changed
// reports whether anything was recorded, journalErr is the writer's
// failure, if any. A second Finish returns statemgr.ErrRecorderClosed.
func (l *Live) Finish() (changed bool, journalErr error, err error) {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return false, nil, statemgr.ErrRecorderClosed
	}
	l.closed = true
	changed = l.changed
	l.mu.Unlock()
	return changed, l.w.Close(), nil
}
