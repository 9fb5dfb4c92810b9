package s3

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/google/uuid"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/backends"
	"github.com/cairn-iac/cairn/internal/backends/applyjournal"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

// Recorder owns the live state during an apply on S3: each recorded
// change is in a journal object before the engine is told it is saved,
// and Close writes the state object once.
type Recorder struct {
	s           *State
	header      applyjournal.Header
	releaseLock func() error
	w           *applyjournal.GroupWriter

	mu      sync.Mutex
	state   *states.State
	changed bool
	closed  bool
}

var (
	_ backends.Recorder        = (*Recorder)(nil)
	_ backends.FailureNotifier = (*Recorder)(nil)
)

// BeginApply starts recording an apply on top of base (see
// statemgr.Filesystem.BeginApply): it folds a crashed apply's journal,
// checks base is the stored snapshot (writing base first if it was
// refreshed in memory), and writes the journal header.
func (s *State) BeginApply(base *statefile.File) (backends.Recorder, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rec != nil {
		return nil, fmt.Errorf("starting apply on %s: %w", s.Location(), errApplyOpen)
	}
	ctx := context.Background()
	release, err := s.holdLocked(ctx, "OperationTypeApply")
	if err != nil {
		return nil, err
	}
	rec, err := s.beginApply(ctx, base)
	if err != nil {
		release()
		return nil, err
	}
	rec.releaseLock = release
	s.rec = rec
	return rec, nil
}

func (s *State) beginApply(ctx context.Context, base *statefile.File) (*Recorder, error) {
	cur, err := s.current(ctx)
	if err != nil {
		return nil, err
	}
	if err := statemgr.CheckBase(base, cur); err != nil {
		return nil, fmt.Errorf("starting apply on %s: %w", s.Location(), err)
	}
	if cur != nil && !statemgr.SameState(cur.State, base.State) {
		// Recovery replays the journal on the stored object, so the
		// object must be base.
		next := &statefile.File{TerraformVersion: statemgr.TerraformVersion, Serial: cur.Serial + 1, Lineage: cur.Lineage, State: base.State.DeepCopy()}
		if err := s.writeSnapshot(ctx, next); err != nil {
			return nil, err
		}
		cur = next
	}
	h := applyjournal.Header{Format: journalFormat, Lineage: uuid.NewString(), BaseExists: cur != nil}
	state := states.NewState()
	if cur != nil {
		h.Lineage, h.BaseSerial = cur.Lineage, cur.Serial
		state = cur.State.DeepCopy()
	}
	head, err := json.Marshal(&h)
	if err != nil {
		return nil, err
	}
	if err := s.b.st.put(ctx, s.journalKey(0), head, false); err != nil {
		return nil, fmt.Errorf("starting the apply journal of %s: %w", s.Location(), err)
	}
	rec := &Recorder{s: s, header: h, state: state}
	rec.w = applyjournal.NewGroupWriter(func(first uint64, records []string) error {
		return s.commitGroup(context.Background(), first, records)
	})
	return rec, nil
}

// OnFailure registers stop, called once if the journal cannot be written
// any more (the bucket stayed unreachable).
func (r *Recorder) OnFailure(stop func()) { r.w.OnFailure(stop) }

// SetObject records obj at addr durably.
func (r *Recorder) SetObject(addr addrs.AbsResourceInstanceObject, obj *states.ObjectSrc, provider addrs.AbsProviderConfig) error {
	wait, err := r.SetObjectAsync(addr, obj, provider)
	if err != nil {
		return err
	}
	return wait()
}

// SetObjectAsync records obj at once and returns the wait for its
// journal object.
func (r *Recorder) SetObjectAsync(addr addrs.AbsResourceInstanceObject, obj *states.ObjectSrc, provider addrs.AbsProviderConfig) (func() error, error) {
	rec := applyjournal.ObjectRecord(addr, obj, provider)
	seq, err := r.record(&rec)
	if err != nil {
		return nil, fmt.Errorf("recording %s: %w", addr, err)
	}
	return func() error {
		if err := r.w.Wait(seq); err != nil {
			return fmt.Errorf("recording %s: %w", addr, err)
		}
		return nil
	}, nil
}

// SetOutput records a root output's value (nil: its removal) durably.
func (r *Recorder) SetOutput(name string, v *states.OutputValue) error {
	rec := applyjournal.OutputRecord(name, v)
	seq, err := r.record(&rec)
	if err == nil {
		err = r.w.Wait(seq)
	}
	if err != nil {
		return fmt.Errorf("recording output %q: %w", name, err)
	}
	return nil
}

// record applies a change and queues it under one lock, so that the
// journal's order is the order of the changes.
func (r *Recorder) record(rec *applyjournal.Record) (uint64, error) {
	stored, err := rec.Encode(r.s.b.transform)
	if err != nil {
		return 0, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return 0, statemgr.ErrRecorderClosed
	}
	rec.Apply(r.state)
	r.changed = true
	return r.w.Append(string(stored)), nil
}

// State returns a copy of the live state.
func (r *Recorder) State() *states.State {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.state.DeepCopy()
}

// Snapshot is the live state as the snapshot Close writes.
func (r *Recorder) Snapshot() *statefile.File {
	return &statefile.File{TerraformVersion: statemgr.TerraformVersion, Serial: r.header.BaseSerial + 1, Lineage: r.header.Lineage, State: r.State()}
}

// Close writes the final state object, then deletes the journal, then
// releases a lock BeginApply took. When the object cannot be written but
// every change is in the journal, the next run recovers them; when the
// journal failed too, the error is a *statemgr.NotDurableError and the
// caller must save Snapshot.
func (r *Recorder) Close() (out *statefile.File, err error) {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil, statemgr.ErrRecorderClosed
	}
	r.closed = true
	r.mu.Unlock()
	s := r.s
	jerr := r.w.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	defer func() {
		s.rec = nil
		if relErr := r.releaseLock(); relErr != nil && err == nil {
			err = relErr
		}
	}()
	ctx := context.Background()
	if !r.changed {
		return s.current(ctx)
	}
	out = r.Snapshot()
	if werr := s.writeSnapshot(ctx, out); werr != nil {
		if jerr != nil {
			return nil, &statemgr.NotDurableError{Snapshot: werr, Journal: jerr}
		}
		return nil, fmt.Errorf("%w; the journal objects under s3://%s/%s keep every change and the next command will recover them",
			werr, s.b.cfg.Bucket, s.journalPrefix())
	}
	// The state object holds everything now: a journal left behind by a
	// failed deletion is stale, and the next write deletes it.
	_ = s.deleteJournal(ctx, nil)
	return out, nil
}
