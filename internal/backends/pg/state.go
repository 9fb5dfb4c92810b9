package pg

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/cairn-iac/cairn/internal/backends"
	"github.com/cairn-iac/cairn/internal/backends/applyjournal"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

// State is one workspace's row, with its own session. Its methods are
// safe for concurrent use.
type State struct {
	b    *Backend
	name string

	// mu serializes the manager's operations and guards rec.
	mu sync.Mutex
	// rec is the apply in progress.
	rec *Recorder

	// connMu guards the session and what reconnecting needs, which the
	// apply's journal writer uses too.
	connMu         sync.Mutex
	conn           *pgx.Conn
	sessionDropped bool
	// lockKey is the advisory lock held, nil when none.
	lockKey *int64
	// borrowed is the manager of the same run whose session holds the
	// lock that covers this workspace (LockAlongside), nil when none.
	borrowed *State
	// lastSum is the MD5 of the row's data as of the last read or write
	// under the lock, "" for no row: after a lost session, the run goes on
	// only if the row still has it, or pendingSum, the data of a write in
	// flight when the session was lost.
	lastSum, pendingSum string
	// lost is set once the state could not be claimed back after a lost
	// session (errLostState); every later call fails with it.
	lost error
}

var _ backends.StateMgr = (*State)(nil)

func newState(b *Backend, name string) *State { return &State{b: b, name: name} }

func (s *State) close(ctx context.Context) {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	if s.conn != nil {
		s.conn.Close(ctx)
		s.conn = nil
	}
}

// FailureAdvice says what to do when the database failed mid-apply: the
// storage is a database, so a disk is not the thing to look at.
func (s *State) FailureAdvice() string {
	return "The state is stored in PostgreSQL (" + s.Location() + "), which could not be written: once the database " +
		"is reachable and accepting writes again (check the server, the network and the connection string), " +
		"follow the steps given for the final state snapshot, then run the command again."
}

// Location names the table and workspace; never the connection string.
func (s *State) Location() string {
	return fmt.Sprintf("%s.states (workspace %q)", unquote(s.b.cfg.schemaIdent()), s.name)
}

var errApplyOpen = errors.New("an apply started with BeginApply is still open")

// Read returns the state with any journal rows a crashed apply left
// replayed in memory; nil when the workspace has no state. It never
// writes and takes no lock.
func (s *State) Read() (*statefile.File, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rec != nil {
		return nil, fmt.Errorf("reading %s: %w", s.Location(), errApplyOpen)
	}
	st, err := s.fetch(context.Background())
	if err != nil {
		return nil, err
	}
	return st.view(s.locked())
}

// Persist writes st as the next snapshot if it differs from the stored
// one, and rewrites an unchanged one that is not stored as the transform
// writes it (see statemgr.Filesystem.Persist).
func (s *State) Persist(st *states.State) (*statefile.File, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rec != nil {
		return nil, fmt.Errorf("writing %s: %w", s.Location(), errApplyOpen)
	}
	ctx := context.Background()
	release, err := s.holdLocked(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	fetched, err := s.fetch(ctx)
	if err != nil {
		return nil, err
	}
	prev, err := s.recoverFetched(ctx, fetched)
	if err != nil {
		return nil, err
	}
	return backends.PersistOnto(prev, st, fetched.stale, func(f *statefile.File) error {
		return s.writeSnapshot(ctx, f, false)
	})
}

// persistNew gives a new workspace its first, empty snapshot.
func (s *State) persistNew() (*statefile.File, error) {
	return s.Persist(states.NewState())
}

// Import replaces the snapshot with f, keeping its lineage and serial
// (see statemgr.Filesystem.Import).
func (s *State) Import(f *statefile.File, force bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rec != nil {
		return fmt.Errorf("writing %s: %w", s.Location(), errApplyOpen)
	}
	ctx := context.Background()
	release, err := s.holdLocked(ctx)
	if err != nil {
		return err
	}
	defer release()
	st, err := s.fetch(ctx)
	var ue *statemgr.UnreadableError
	unreadable := err != nil && force && errors.As(err, &ue)
	if err != nil && !unreadable {
		return err
	}
	var prev *statefile.File
	aside := ""
	switch {
	case unreadable || force && st.damage != nil:
		// The row or its journal cannot be read: force replaces them
		// (the documented recovery), setting the journal rows aside.
		aside = s.name + "/replaced-" + applyjournal.AsideStamp()
	case st.damage != nil:
		return st.damage
	case st.supersededBy(f):
		prev = st.snap
	default:
		if prev, err = s.recoverFetched(ctx, st); err != nil {
			return err
		}
	}
	next, err := backends.ImportOnto(f, prev, force)
	if err != nil {
		return err
	}
	if aside != "" {
		return s.writeSnapshotMovingJournal(ctx, next, aside)
	}
	return s.writeSnapshot(ctx, next, true)
}

// Recover folds a crashed apply's journal rows into the row now. The
// database commits a journal batch whole or not at all, so rows that
// cannot be read were edited or sealed with a key no longer configured:
// they are refused (a *JournalDamageError) unless acceptLoss is set, and
// then the records before the damage are folded in and every journal
// row is moved aside, under the name "<workspace>/damaged-<time>" in the
// journal table, where it can still be inspected.
func (s *State) Recover(acceptLoss bool) (*statemgr.Recovery, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rec != nil {
		return nil, fmt.Errorf("recovering %s: %w", s.Location(), errApplyOpen)
	}
	ctx := context.Background()
	release, err := s.holdLocked(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	st, err := s.fetch(ctx)
	if err != nil {
		return nil, err
	}
	if st.damage != nil {
		if !acceptLoss {
			return nil, st.damage
		}
		return s.foldDamaged(ctx, st)
	}
	n := 0
	if st.journal != nil {
		n = len(st.journal.Records)
	}
	if _, err := s.recoverFetched(ctx, st); err != nil {
		return nil, err
	}
	return &statemgr.Recovery{Records: n}, nil
}

// foldDamaged writes the snapshot with the records before the damage
// (when the header says they continue the stored snapshot) and moves
// every journal row aside in the same transaction.
func (s *State) foldDamaged(ctx context.Context, st *fetched) (*statemgr.Recovery, error) {
	aside := s.name + "/damaged-" + applyjournal.AsideStamp()
	out := &statemgr.Recovery{Damaged: s.journalLocation(aside), Unusable: st.damage.Unusable}
	next := st.snap
	if st.damage.Seq > 0 {
		s.setSum(st.sum)
		// A header that does not continue the stored snapshot adds
		// nothing to it: its rows are only set aside.
		status, err := (&fetched{snap: st.snap, journal: st.journal}).classify()
		if err == nil && status == applyjournal.Pending && len(st.journal.Records) > 0 {
			next = st.journal.Recovered(st.snap)
			out.Records = len(st.journal.Records)
		}
	}
	if next == nil {
		return out, s.moveJournal(ctx, aside)
	}
	if err := s.writeSnapshotMovingJournal(ctx, next, aside); err != nil {
		return nil, fmt.Errorf("recovering the apply journal of %s: %w", s.Location(), err)
	}
	return out, nil
}

// current returns the stored snapshot, folding in a crashed apply's
// journal first. The lock must be held.
func (s *State) current(ctx context.Context) (*statefile.File, error) {
	st, err := s.fetch(ctx)
	if err != nil {
		return nil, err
	}
	return s.recoverFetched(ctx, st)
}

// recoverFetched writes what st's journal adds as a new snapshot (serial
// one above the journal's base) and deletes the journal rows in the same
// transaction; a stale journal is just deleted. The lock must be held.
func (s *State) recoverFetched(ctx context.Context, st *fetched) (*statefile.File, error) {
	s.setSum(st.sum)
	if st.damage != nil {
		return nil, st.damage
	}
	if st.journal == nil {
		return st.snap, nil
	}
	status, err := st.classify()
	if err != nil {
		return nil, err
	}
	if status == applyjournal.Stale || len(st.journal.Records) == 0 {
		return st.snap, s.deleteJournal(ctx)
	}
	out := st.journal.Recovered(st.snap)
	if err := s.writeSnapshot(ctx, out, true); err != nil {
		return nil, fmt.Errorf("recovering the apply journal of %s: %w", s.Location(), err)
	}
	return out, nil
}

// storedCurrent reports whether data is stored as the transform would
// write it; always so without a transform that can say.
func (s *State) storedCurrent(data string) bool {
	t, ok := s.b.cfg.Transform.(interface{ Current(stored []byte) bool })
	return !ok || data == "" || t.Current([]byte(data))
}

// encodeSnapshot is the one place a snapshot becomes the bytes stored in
// the data column, through the transform when one is set.
func (s *State) encodeSnapshot(f *statefile.File) (string, error) {
	src, err := statefile.Marshal(f)
	if err != nil {
		return "", err
	}
	if t := s.b.cfg.Transform; t != nil {
		if src, err = t.Encrypt(src); err != nil {
			return "", err
		}
	}
	return string(src), nil
}

// errEmptyRow is a row whose data column is empty or NULL: not a state.
var errEmptyRow = errors.New("error loading state: no state (the row's data is empty)")

// decodeSnapshot is the one place stored bytes become a snapshot. An
// empty data column is an error, as in Terraform: a workspace without
// state has no row.
func (s *State) decodeSnapshot(data string) (*statefile.File, error) {
	if data == "" {
		return nil, errEmptyRow
	}
	src := []byte(data)
	if t := s.b.cfg.Transform; t != nil && len(src) > 0 {
		var err error
		if src, err = t.Decrypt(src); err != nil {
			return nil, err
		}
	}
	f, err := statefile.Read(bytes.NewReader(src))
	if errors.Is(err, statefile.ErrNoState) {
		return nil, errEmptyRow
	}
	return f, err
}

// writeSnapshot upserts the row with f, as Terraform's Put does, deleting
// the journal rows in the same transaction when foldJournal is set (or
// whenever journal rows exist: the snapshot holds them). The lock must
// be held.
func (s *State) writeSnapshot(ctx context.Context, f *statefile.File, foldJournal bool) error {
	var journalStmt string
	if foldJournal {
		journalStmt = `DELETE FROM ` + s.b.cfg.schemaIdent() + `.` + journalTable + ` WHERE name = $1`
	}
	return s.upsert(ctx, f, journalStmt)
}

// writeSnapshotMovingJournal upserts the row with f and renames the
// workspace's journal rows to aside in the same transaction: they stay
// for inspection, and no command reads them again.
func (s *State) writeSnapshotMovingJournal(ctx context.Context, f *statefile.File, aside string) error {
	return s.upsert(ctx, f, `UPDATE `+s.b.cfg.schemaIdent()+`.`+journalTable+` SET name = $2 WHERE name = $1`, aside)
}

// upsert writes f and then runs journalStmt (if any) on the workspace's
// journal rows ($1 the workspace, then args), in one transaction.
func (s *State) upsert(ctx context.Context, f *statefile.File, journalStmt string, args ...any) error {
	data, err := s.encodeSnapshot(f)
	if err != nil {
		return fmt.Errorf("writing %s: %w", s.Location(), err)
	}
	schema := s.b.cfg.schemaIdent()
	sum := md5Hex(data)
	err = s.do(ctx, func(conn *pgx.Conn) error {
		s.pendingSum = sum
		return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, `INSERT INTO `+schema+`.states (name, data) VALUES ($1, $2)
				ON CONFLICT (name) DO UPDATE SET data = $2 WHERE states.name = $1`, s.name, data); err != nil {
				return err
			}
			if journalStmt != "" {
				_, err := tx.Exec(ctx, journalStmt, append([]any{s.name}, args...)...)
				return err
			}
			return nil
		})
	})
	if err != nil {
		return fmt.Errorf("writing %s: %w", s.Location(), err)
	}
	s.setSum(sum)
	return nil
}

// moveJournal renames the workspace's journal rows to aside.
func (s *State) moveJournal(ctx context.Context, aside string) error {
	err := s.do(ctx, func(conn *pgx.Conn) error {
		_, err := conn.Exec(ctx, `UPDATE `+s.b.cfg.schemaIdent()+`.`+journalTable+` SET name = $2 WHERE name = $1`, s.name, aside)
		return err
	})
	if err != nil {
		return fmt.Errorf("setting the apply journal of %s aside: %w", s.Location(), err)
	}
	return nil
}

// setSum records the row's MD5 under the session's mutex, where the
// journal writer reads it.
func (s *State) setSum(sum string) {
	s.connMu.Lock()
	s.lastSum, s.pendingSum = sum, ""
	s.connMu.Unlock()
}

// locked reports whether the lock is held, on this session or borrowed.
func (s *State) locked() bool {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	return s.lockKey != nil || s.borrowed != nil
}

// md5Hex is the MD5 the server's md5(text) computes, to compare rows.
func md5Hex(data string) string {
	sum := md5.Sum([]byte(data))
	return hex.EncodeToString(sum[:])
}

// deleteJournal removes the workspace's journal rows.
func (s *State) deleteJournal(ctx context.Context) error {
	err := s.do(ctx, func(conn *pgx.Conn) error {
		_, err := conn.Exec(ctx, `DELETE FROM `+s.b.cfg.schemaIdent()+`.`+journalTable+` WHERE name = $1`, s.name)
		return err
	})
	if err != nil {
		return fmt.Errorf("removing the apply journal of %s: %w", s.Location(), err)
	}
	return nil
}

// newLineage returns a new state lineage: a random UUID, as Terraform uses.
func newLineage() string { return uuid.NewString() }
