package applyjournal

import (
	"fmt"
	"sync"
)

// GroupWriter commits journal records in groups: one goroutine commits
// whatever was queued while the previous commit was in flight, in one
// call of commit (which must store the group whole or not at all).
// Groups are committed in sequence order, so a record is never durable
// before an earlier one, and commit is never called twice at once.
type GroupWriter struct {
	commit func(first uint64, records []string) error

	mu   sync.Mutex
	cond *sync.Cond
	// queue holds the records not yet taken by the committing goroutine;
	// they end at sequence number queued and start at durable+1 when
	// taken (no other group is then in flight).
	queue    []string
	queued   uint64
	durable  uint64
	err      error // the permanent failure, if any
	closing  bool
	stop     func()
	stopped  bool
	finished chan struct{}
}

// NewGroupWriter starts a writer whose first record is number 1.
func NewGroupWriter(commit func(first uint64, records []string) error) *GroupWriter {
	w := &GroupWriter{commit: commit, finished: make(chan struct{})}
	w.cond = sync.NewCond(&w.mu)
	go w.run()
	return w
}

// Append queues a stored record and returns its sequence number.
func (w *GroupWriter) Append(record string) uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.queued++
	w.queue = append(w.queue, record)
	w.cond.Broadcast()
	return w.queued
}

// Wait returns once record seq is committed, or the writer failed.
func (w *GroupWriter) Wait(seq uint64) error {
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

// OnFailure registers stop, called once on a permanent failure.
func (w *GroupWriter) OnFailure(stop func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stop = stop
	if w.err != nil && !w.stopped {
		w.stopped = true
		stop()
	}
}

// Close commits what is queued and stops the goroutine. It returns the
// permanent failure, if any: then some records are only in memory.
func (w *GroupWriter) Close() error {
	w.mu.Lock()
	w.closing = true
	w.cond.Broadcast()
	w.mu.Unlock()
	<-w.finished
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

func (w *GroupWriter) run() {
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
		err := w.commit(first, group)
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
