package pg

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

// creationLock is the advisory lock Terraform takes while a workspace's
// row does not exist yet.
const creationLock = -1

// tryLock takes the workspace's lock once, without waiting, with
// Terraform's protocol: with a row, its id and the creation lock together
// (keeping the id and giving the creation lock back), so that nobody
// locks a row someone is creating; without one, the creation lock. key is
// the lock now held.
func tryLock(ctx context.Context, conn *pgx.Conn, schema, name string) (key int64, ok bool, err error) {
	var id int64
	var gotRow, gotCreate bool
	err = conn.QueryRow(ctx, `SELECT states.id, pg_try_advisory_lock(states.id), pg_try_advisory_lock(-1) FROM `+
		schema+`.states WHERE states.name = $1`, name).Scan(&id, &gotRow, &gotCreate)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock(-1)`).Scan(&gotCreate); err != nil {
			return 0, false, err
		}
		return creationLock, gotCreate, nil
	case err != nil:
		return 0, false, err
	}
	if gotCreate {
		if err := unlock(ctx, conn, creationLock); err != nil {
			return 0, false, err
		}
	}
	if gotRow && !gotCreate {
		// Someone is creating a workspace: the row may not be safe to touch.
		if err := unlock(ctx, conn, id); err != nil {
			return 0, false, err
		}
	}
	return id, gotRow && gotCreate, nil
}

func unlock(ctx context.Context, conn *pgx.Conn, key int64) error {
	var released bool
	return conn.QueryRow(ctx, `SELECT pg_advisory_unlock($1)`, key).Scan(&released)
}

// Lock takes the workspace's advisory lock on this manager's session,
// retrying until timeout (0 tries once). The server releases it if the
// session ends, so a crashed run never leaves a stale lock. On failure
// the error is a *statemgr.LockError naming the session that holds it.
func (s *State) Lock(ctx context.Context, info statemgr.LockInfo, timeout time.Duration) (func() error, error) {
	if info.Version == "" {
		info.Version = statemgr.TerraformVersion
	}
	deadline := time.Now().Add(timeout)
	wait := 100 * time.Millisecond
	for {
		ok, err := s.lockOnce(ctx, sessionName(info))
		if err != nil {
			return nil, &statemgr.LockError{Err: err}
		}
		if ok {
			return s.unlockFunc(), nil
		}
		if !time.Now().Add(wait).Before(deadline) {
			return nil, &statemgr.LockError{Holder: s.holder(ctx), Err: fmt.Errorf("workspace %q: %w", s.name, statemgr.ErrLocked)}
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil, &statemgr.LockError{Holder: s.holder(ctx), Err: ctx.Err()}
		}
		wait = min(wait*2, time.Second)
	}
}

// sessionName is the application_name a lock holder's session takes,
// "cairn VERSION OPERATION WHO", so that a refused run (Cairn's or a
// person's in psql) can tell who holds the lock: Terraform's pg backend
// stores no lock info. parseSessionName reads it back.
func sessionName(info statemgr.LockInfo) string {
	name := strings.TrimSpace("cairn " + info.Version + " " + info.Operation + " " + info.Who)
	if len(name) > 63 {
		name = name[:63]
	}
	return name
}

// parseSessionName fills info's version, operation and holder from a
// Cairn session's name; other sessions (Terraform's, psql) name none of
// them, and their version stays unknown.
func parseSessionName(app string, info *statemgr.LockInfo) bool {
	parts := strings.SplitN(app, " ", 4)
	if len(parts) != 4 || parts[0] != "cairn" {
		return false
	}
	info.Version, info.Operation, info.Who = parts[1], parts[2], parts[3]
	return true
}

// lockOnce tries the lock once and records it as held; the session is
// then named name (see sessionName).
func (s *State) lockOnce(ctx context.Context, name string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.locked() {
		return false, errors.New("this run already holds the lock")
	}
	var key int64
	var ok bool
	err := s.do(ctx, func(conn *pgx.Conn) error {
		var err error
		key, ok, err = tryLock(ctx, conn, s.b.cfg.schemaIdent(), s.name)
		if err != nil || !ok {
			return err
		}
		// Set under the session's mutex: the journal writer reads both
		// when it reconnects.
		s.lockKey = &key
		if _, err := conn.Exec(ctx, `SELECT set_config('application_name', $1, false)`, name); err != nil {
			return err
		}
		s.lastSum, err = rowSum(ctx, conn, s.b.cfg.schemaIdent(), s.name)
		return err
	})
	return ok && err == nil, err
}

// unlockFunc releases the lock Lock took; calling it again does nothing.
func (s *State) unlockFunc() func() error {
	return func() error {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.rec != nil {
			return fmt.Errorf("unlocking workspace %q: an apply is still recording; close it first", s.name)
		}
		return s.releaseLocked()
	}
}

// releaseLocked gives the advisory lock back. s.mu must be held. A lost
// session has released it already.
func (s *State) releaseLocked() error {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	if s.lockKey == nil {
		return nil
	}
	key := *s.lockKey
	s.lockKey = nil
	if s.conn == nil || s.conn.IsClosed() {
		return nil
	}
	if err := unlock(context.Background(), s.conn, key); err != nil {
		return fmt.Errorf("unlocking workspace %q: %w", s.name, err)
	}
	return nil
}

// holdLocked takes the lock for one operation when the caller does not
// hold it; release gives back only a lock taken here. s.mu must be held.
func (s *State) holdLocked(ctx context.Context) (release func() error, err error) {
	if s.locked() {
		return func() error { return nil }, s.confirmBorrowed(ctx)
	}
	s.mu.Unlock()
	ok, err := s.lockOnce(ctx, "cairn")
	s.mu.Lock()
	if err != nil {
		return nil, &statemgr.LockError{Err: err}
	}
	if !ok {
		return nil, &statemgr.LockError{Holder: s.holder(ctx), Err: fmt.Errorf("workspace %q: %w", s.name, statemgr.ErrLocked)}
	}
	return s.releaseLocked, nil
}

// holder describes the sessions holding an advisory lock in this
// database, as far as the server tells: Terraform records no lock info
// for pg, so the session is all there is. nil when none is visible.
func (s *State) holder(ctx context.Context) *statemgr.LockInfo {
	var info statemgr.LockInfo
	var pid int32
	var user, app, addr string
	var started time.Time
	err := s.do(ctx, func(conn *pgx.Conn) error {
		// A bigint advisory key is split over classid (high half) and
		// objid (low half); the workspace's keys are its row id and -1.
		return conn.QueryRow(ctx, `SELECT a.pid, coalesce(a.usename, ''), coalesce(a.application_name, ''),
				coalesce(host(a.client_addr), 'local'), a.backend_start
			FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
			WHERE l.locktype = 'advisory' AND l.granted AND l.pid <> pg_backend_pid() AND l.objsubid = 1
				AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
				AND ((l.classid::bigint << 32) | l.objid::bigint) IN
					(-1, coalesce((SELECT id FROM `+s.b.cfg.schemaIdent()+`.states WHERE name = $1), -1))
			ORDER BY a.backend_start LIMIT 1`, s.name).Scan(&pid, &user, &app, &addr, &started)
	})
	if err != nil {
		return nil
	}
	info.ID = fmt.Sprintf("pid %d", pid)
	if !parseSessionName(app, &info) {
		info.Who = user + "@" + addr
		info.Operation = app
	}
	info.Created = started.UTC()
	info.Path = s.Location()
	info.Info = fmt.Sprintf("PostgreSQL session %d holds an advisory lock; it is released when that session ends (SELECT pg_terminate_backend(%d) ends it)", pid, pid)
	return &info
}

// ForceUnlock cannot release another session's advisory lock: only that
// session, or its end, can. It says how to end the session.
func (s *State) ForceUnlock(id string) error {
	h := s.holder(context.Background())
	if h == nil {
		return fmt.Errorf("workspace %q is not locked by any other session", s.name)
	}
	return fmt.Errorf("PostgreSQL advisory locks belong to the session that took them; %s", h.Info)
}
