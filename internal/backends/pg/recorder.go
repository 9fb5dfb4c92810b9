package pg

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/cairn-iac/cairn/internal/backends"
	"github.com/cairn-iac/cairn/internal/backends/applyjournal"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

// Recorder owns the live state during an apply on pg; each recorded
// change is a journal row committed before the engine is told it is
// saved, and Close writes the states row once.
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
// refreshed in memory), and commits the journal header.
func (s *State) BeginApply(base *statefile.File) (backends.Recorder, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rec != nil {
		return nil, fmt.Errorf("starting apply on %s: %w", s.Location(), errApplyOpen)
	}
	if s.borrowedLock() {
		// The journal writer takes the lock back on a new session after
		// a lost one; a borrowed lock lives on another session.
		return nil, fmt.Errorf("starting apply on %s: the workspace's lock is borrowed from another workspace's session (LockAlongside)", s.Location())
	}
	ctx := context.Background()
	release, err := s.holdLocked(ctx)
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
		return s.writeSnapshot(ctx, f, false)
	})
	if err != nil {
		return nil, err
	}
	h := applyjournal.StartHeader(journalFormat, newLineage(), cur)
	head, err := json.Marshal(&h)
	if err != nil {
		return nil, err
	}
	schema := s.b.cfg.schemaIdent()
	err = s.do(ctx, func(conn *pgx.Conn) error {
		_, err := conn.Exec(ctx, `INSERT INTO `+schema+`.`+journalTable+` (name, seq, record) VALUES ($1, 0, $2)
			ON CONFLICT (name, seq) DO UPDATE SET record = $2`, s.name, string(head))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("starting the apply journal of %s: %w", s.Location(), err)
	}
	// Each group is one COPY, a single statement: it commits whole or
	// not at all, as GroupWriter requires.
	w := applyjournal.NewGroupWriter(func(first uint64, rows []string) error {
		return s.commitRows(context.Background(), first, rows)
	})
	return &Recorder{Live: applyjournal.NewLive(h, cur, s.b.cfg.Transform, w), s: s}, nil
}

// Close writes the final state to the row and deletes the journal rows
// in one transaction, then releases a lock BeginApply took. When the row
// cannot be written but every change was committed to the journal, the
// next run recovers them; when the journal failed too, the error is a
// *statemgr.NotDurableError and the caller must save Snapshot.
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
	if werr := s.writeSnapshot(ctx, out, true); werr != nil {
		if jerr != nil {
			return nil, &statemgr.NotDurableError{Snapshot: werr, Journal: jerr}
		}
		return nil, fmt.Errorf("%w; the journal table %s.%s keeps every change and the next command will recover them", werr, unquote(s.b.cfg.schemaIdent()), journalTable)
	}
	return out, nil
}
