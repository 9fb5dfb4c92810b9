package pg

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/cairn-iac/cairn/internal/backends"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

// LockAlongside takes the workspace's lock for a run that already holds
// held's, as a migration holds its source and its destination. When both
// are in one database, Terraform's protocol can refuse the run its own
// second lock: held's session keeps the creation lock -1 while held's row
// does not exist yet (a first apply killed with only journal rows), and
// this manager needs -1 too, to create its row or, briefly, to lock an
// existing one; or both name the same row. The refusal would name the
// run's own session. In those cases held's session already keeps every
// other session from locking this workspace (every locker in the
// database needs -1; the row is the row), so this manager borrows that
// lock instead of taking one: it writes on its own session, and before
// each write confirms that held's session still holds the lock (taking
// it back if the session was lost, as any write does). Otherwise it
// locks as Lock does.
//
// The returned function releases only this manager's part, and must be
// called before held's lock is released. A borrowed lock serves reads
// and writes (Persist, Import), not BeginApply's journal.
func (s *State) LockAlongside(ctx context.Context, info statemgr.LockInfo, timeout time.Duration, held backends.StateMgr) (func() error, error) {
	o, ok := held.(*State)
	if !ok || o == s {
		return s.Lock(ctx, info, timeout)
	}
	covered, err := o.covers(ctx, s)
	if err != nil {
		return nil, &statemgr.LockError{Err: err}
	}
	if !covered {
		return s.Lock(ctx, info, timeout)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.connMu.Lock()
	defer s.connMu.Unlock()
	if s.lockKey != nil || s.borrowed != nil {
		return nil, &statemgr.LockError{Err: fmt.Errorf("workspace %q: this run already holds the lock", s.name)}
	}
	s.borrowed = o
	return func() error {
		s.connMu.Lock()
		defer s.connMu.Unlock()
		s.borrowed = nil
		return nil
	}, nil
}

// covers reports whether o's session holds a lock that keeps every other
// session from locking s's workspace: the creation lock, or s's own row,
// in the database s's session is on. Sessions are told apart by process
// id and start time, so a session of another server is never taken for
// o's.
func (o *State) covers(ctx context.Context, s *State) (bool, error) {
	var key int64
	var pid int32
	var started time.Time
	held := false
	err := o.do(ctx, func(conn *pgx.Conn) error {
		if o.lockKey == nil {
			return nil
		}
		key, held = *o.lockKey, true
		return conn.QueryRow(ctx, `SELECT pid, backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()`).Scan(&pid, &started)
	})
	sameRow := o.name == s.name && o.b.cfg.schemaIdent() == s.b.cfg.schemaIdent()
	if err != nil || !held || key != creationLock && !sameRow {
		return false, err
	}
	var visible bool
	err = s.do(ctx, func(conn *pgx.Conn) error {
		return conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
			WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 AND l.pid = $1 AND a.backend_start = $2
				AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
				AND ((l.classid::bigint << 32) | l.objid::bigint) = $3)`, pid, started, key).Scan(&visible)
	})
	return visible, err
}

// confirmBorrowed checks, before a write under a borrowed lock, that the
// lender's session still holds it: a query on that session takes the
// lock back if the session was lost, or fails if someone else took it
// meanwhile. s.mu must be held.
func (s *State) confirmBorrowed(ctx context.Context) error {
	s.connMu.Lock()
	o := s.borrowed
	s.connMu.Unlock()
	if o == nil {
		return nil
	}
	err := o.do(ctx, func(conn *pgx.Conn) error {
		_, err := conn.Exec(ctx, `SELECT 1`)
		return err
	})
	if err != nil {
		return &statemgr.LockError{Err: fmt.Errorf("workspace %q: the lock held for it by %s was lost: %w", s.name, o.Location(), err)}
	}
	return nil
}

// borrowedLock reports whether the workspace's lock is borrowed.
func (s *State) borrowedLock() bool {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	return s.borrowed != nil
}
