package pg

import (
	"context"
	"fmt"
	"sync"

	"github.com/jackc/pgx/v5"
)

// groupWriter commits journal rows in groups: one goroutine commits
// whatever was queued while the previous commit was in flight as one COPY
// (a single statement, so a group commits whole or not at all). Rows are
// committed in sequence order, so a row is never durable before an
// earlier one.
type groupWriter struct {
	s *State

	mu   sync.Mutex
	cond *sync.Cond
	// queue holds the rows not yet taken by the committing goroutine, in
	// order; they end at sequence number queued. When the goroutine takes
	// them no other group is in flight, so they start at durable+1.
	queue    []string
	queued   uint64 // the last sequence number handed out
	durable  uint64 // the last sequence number committed
	err      error  // the permanent failure, if any
	closing  bool
	stop     func()
	stopped  bool
	finished chan struct{}
}

func newGroupWriter(s *State) *groupWriter {
	w := &groupWriter{s: s, finished: make(chan struct{})}
	w.cond = sync.NewCond(&w.mu)
	go w.run()
	return w
}

// append queues a row and returns its sequence number.
func (w *groupWriter) append(record string) uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.queued++
	w.queue = append(w.queue, record)
	w.cond.Broadcast()
	return w.queued
}

// wait returns once row seq is committed, or the writer failed for good.
func (w *groupWriter) wait(seq uint64) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.durable < seq && w.err == nil {
		w.cond.Wait()
	}
	if w.durable >= seq {
		return nil
	}
	return w.err
}

// onFailure registers stop, called once on a permanent failure.
func (w *groupWriter) onFailure(stop func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stop = stop
	if w.err != nil && !w.stopped {
		w.stopped = true
		stop()
	}
}

// close commits what is queued and stops the goroutine. It returns the
// permanent failure, if any: then some rows are only in memory.
func (w *groupWriter) close() error {
	w.mu.Lock()
	w.closing = true
	w.cond.Broadcast()
	w.mu.Unlock()
	<-w.finished
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// run is the committing goroutine.
func (w *groupWriter) run() {
	defer close(w.finished)
	for {
		w.mu.Lock()
		for len(w.queue) == 0 && !w.closing && w.err == nil {
			w.cond.Wait()
		}
		if w.err != nil || (len(w.queue) == 0 && w.closing) {
			w.mu.Unlock()
			return
		}
		group, first := w.queue, w.durable+1
		w.queue = nil
		w.mu.Unlock()
		err := w.s.commitRows(context.Background(), first, group)
		w.mu.Lock()
		if err != nil {
			w.err = fmt.Errorf("committing the apply journal: %w", err)
			if w.stop != nil && !w.stopped {
				w.stopped = true
				go w.stop()
			}
		} else {
			w.durable = first + uint64(len(group)) - 1
		}
		w.cond.Broadcast()
		w.mu.Unlock()
	}
}

// commitRows writes rows first, first+1, … of the journal. Run again
// after a lost session, it first skips the rows the lost commit may have
// written.
func (s *State) commitRows(ctx context.Context, first uint64, rows []string) error {
	schema := s.b.cfg.schemaIdent()
	retried := false
	return s.do(ctx, func(conn *pgx.Conn) error {
		from := first
		if retried {
			var last int64
			if err := conn.QueryRow(ctx, `SELECT coalesce(max(seq), 0) FROM `+schema+`.`+journalTable+` WHERE name = $1`, s.name).Scan(&last); err != nil {
				return err
			}
			if uint64(last) >= from {
				from = uint64(last) + 1
			}
		}
		retried = true
		skip := from - first
		if skip >= uint64(len(rows)) {
			return nil
		}
		src := make([][]any, 0, len(rows)-int(skip))
		for i, r := range rows[skip:] {
			src = append(src, []any{s.name, int64(from) + int64(i), r})
		}
		_, err := conn.CopyFrom(ctx, pgx.Identifier{unquote(schema), journalTable}, []string{"name", "seq", "record"}, pgx.CopyFromRows(src))
		return err
	})
}
