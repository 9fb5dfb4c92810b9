package s3

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"

	"github.com/cairn-iac/cairn/internal/backends"
	"github.com/cairn-iac/cairn/internal/backends/applyjournal"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

// Recorder owns the live state during an apply on S3: each recorded
// change is in a journal object before the engine is told it is saved,
// and Close writes the state object once.
type Recorder struct {
	*applyjournal.Live
	s           *State
	releaseLock func() error
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
	cur, err = backends.ApplyBase(base, cur, s.Location(), func(f *statefile.File) error {
		return s.writeSnapshot(ctx, f)
	})
	if err != nil {
		return nil, err
	}
	h := applyjournal.StartHeader(journalFormat, uuid.NewString(), cur)
	head, err := json.Marshal(&h)
	if err != nil {
		return nil, err
	}
	if err := s.b.st.put(ctx, s.journalKey(0), head, false); err != nil {
		return nil, fmt.Errorf("starting the apply journal of %s: %w", s.Location(), err)
	}
	w := applyjournal.NewGroupWriter(func(first uint64, records []string) error {
		return s.commitGroup(context.Background(), first, records)
	})
	return &Recorder{Live: applyjournal.NewLive(h, cur, s.b.transform, w), s: s}, nil
}

// Close writes the final state object, then deletes the journal, then
// releases a lock BeginApply took. When the object cannot be written but
// every change is in the journal, the next run recovers them; when the
// journal failed too, the error is a *statemgr.NotDurableError and the
// caller must save Snapshot.
func (r *Recorder) Close() (out *statefile.File, err error) {
	changed, jerr, err := r.Finish()
	if err != nil {
		return nil, err
	}
	s := r.s
	s.mu.Lock()
	defer s.mu.Unlock()
	defer func() {
		s.rec = nil
		if relErr := r.releaseLock(); relErr != nil && err == nil {
			err = relErr
		}
	}()
	ctx := context.Background()
	if !changed {
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
