package pg

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/cairn-iac/cairn/internal/backends"
)

// errLostState means the session was lost and, on a new one, the state
// could no longer be claimed as this run's: another run took the lock, or
// the row changed. Retrying cannot help.
var errLostState = errors.New("the connection to PostgreSQL was lost and the state lock could not be taken back")

// do runs fn on the manager's session, connecting first if needed. When
// the session is lost (the server ended it, the network failed), it
// reconnects with backoff for up to the configured RetryFor, takes the
// lock back if it was held (checking that the state row is still the one
// this run last read or wrote), and runs fn again. fn must therefore be
// safe to run twice: a commit whose acknowledgement was lost may have
// happened.
func (s *State) do(ctx context.Context, fn func(conn *pgx.Conn) error) error {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	deadline := time.Now().Add(s.b.cfg.retryFor())
	delay := 50 * time.Millisecond
	for {
		if s.lost != nil {
			return s.lost
		}
		err := s.ensureSession(ctx)
		if err == nil {
			err = fn(s.conn)
			if err == nil || !s.sessionLost(err) {
				return err
			}
		}
		if errors.Is(err, errLostState) {
			// The state is no longer this run's: nothing may be written
			// on this manager any more, on any session.
			s.lost = err
			s.dropSession()
			return err
		}
		if ctx.Err() != nil {
			return err
		}
		if time.Now().Add(delay).After(deadline) {
			return fmt.Errorf("%w: %w (gave up retrying after %s)", backends.ErrUnavailable, err, s.b.cfg.retryFor())
		}
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return ctx.Err()
		}
		delay = min(delay*2, 2*time.Second)
	}
}

// sessionLost reports whether err ended the session, so that a new one
// might succeed.
func (s *State) sessionLost(err error) bool {
	if s.conn != nil && s.conn.IsClosed() {
		s.dropSession()
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && (pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03") {
		// admin_shutdown (pg_terminate_backend), crash_shutdown,
		// cannot_connect_now.
		s.dropSession()
		return true
	}
	if pgconn.Timeout(err) {
		s.dropSession()
		return true
	}
	return false
}

func (s *State) dropSession() {
	if s.conn != nil {
		s.conn.Close(context.Background())
	}
	s.conn = nil
	s.sessionDropped = true
}

// ensureSession connects if there is no session. On a new session after
// a lost one while the lock was held, it takes the lock back, failing
// with errLostState if someone else holds it or the row changed.
func (s *State) ensureSession(ctx context.Context) error {
	if s.conn != nil {
		return nil
	}
	conn, err := s.b.connect(ctx)
	if err != nil {
		return err
	}
	s.conn = conn
	if !s.sessionDropped || s.lockKey == nil {
		return nil
	}
	key, ok, err := tryLock(ctx, conn, s.b.cfg.schemaIdent(), s.name)
	if err != nil {
		s.dropSession()
		return err
	}
	if !ok {
		return errLostState
	}
	s.lockKey = &key
	sum, err := rowSum(ctx, conn, s.b.cfg.schemaIdent(), s.name)
	if err != nil {
		s.dropSession()
		return err
	}
	// A write whose acknowledgement the lost session swallowed may have
	// committed: then the row holds what this run was writing.
	if sum != s.lastSum && (s.pendingSum == "" || sum != s.pendingSum) {
		return fmt.Errorf("%w: the state changed while this run was disconnected", errLostState)
	}
	return nil
}

// rowSum is the MD5 of the workspace's data as the server computes it, ""
// without a row.
func rowSum(ctx context.Context, conn *pgx.Conn, schema, name string) (string, error) {
	var sum *string
	err := conn.QueryRow(ctx, `SELECT md5(data) FROM `+schema+`.states WHERE name = $1`, name).Scan(&sum)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && sum == nil) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return *sum, nil
}
