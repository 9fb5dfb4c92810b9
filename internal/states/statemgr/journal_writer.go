package statemgr

import (
	"fmt"
	"runtime"
	"sync"
	"time"
)

// journalWriter appends records to the journal file with group commit:
// callers append under their own ordering lock and then wait; the first
// waiter to find no sync in progress becomes the leader, writes everything
// appended so far in one write, syncs once, and wakes every caller whose
// record that covered. Records appended while a sync runs wait for the
// next one, so N concurrent workers share syncs instead of queueing N of
// them, and no goroutine outlives the calls that use it.
//
// The file is kept longer than its content, zero-filled ahead of the
// writes: overwriting blocks that already exist lets the sync skip the
// file-system metadata commit that every extending append needs, which on
// ext4 makes each sync three to four times cheaper. Zero bytes contain no
// newline and never parse, so a reader sees them as the unacknowledged
// tail. Zero-filling is only an optimisation: when it fails (a nearly
// full disk), the writer stops preallocating and appends plainly, so a
// record that fits on the disk is never lost to it.
//
// A write or sync failure is sticky: every later wait fails with it,
// because nothing written after a gap could be trusted on replay.
type journalWriter struct {
	f file
	// off is where the next batch goes, size how far the file is
	// zero-filled; only the leader touches them. noPrealloc is set once
	// zero-filling failed.
	off, size  int64
	noPrealloc bool

	mu      sync.Mutex
	cond    *sync.Cond
	pending []byte // appended, not yet handed to a leader
	spare   []byte // the last leader's buffer, reused for pending
	// appended and durable count records: the sequence number of the
	// last record appended, and of the last one known durable.
	appended uint64
	durable  uint64
	// taken is the last record handed to a leader, lastSync how long the
	// last write and sync took; gather uses both.
	taken    uint64
	lastSync time.Duration
	// waiters counts callers in wait, peakWaiters the most there were.
	waiters, peakWaiters uint64
	syncing              bool
	err                  error
	syncs                int // number of syncs done, for benchmarks and tests
}

func newJournalWriter(f file, off int64) *journalWriter {
	w := &journalWriter{f: f, off: off, size: off}
	w.cond = sync.NewCond(&w.mu)
	return w
}

// append queues one record, framed as a line with its sequence number
// and checksum (appendFramed), and returns the sequence number, to be
// passed to wait. Lines are written in the order append is called.
func (w *journalWriter) append(body []byte) uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.appended++
	w.pending = appendFramed(w.pending, w.appended, body)
	return w.appended
}

// wait returns once record seq is durable, leading a sync if none is in
// progress.
func (w *journalWriter) wait(seq uint64) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.waiters++
	w.peakWaiters = max(w.peakWaiters, w.waiters)
	defer func() { w.waiters-- }()
	for w.durable < seq {
		if w.err != nil {
			return w.err
		}
		if w.syncing {
			w.cond.Wait()
			continue
		}
		w.gather()
		if w.syncing || w.durable >= seq {
			continue
		}
		w.lead()
	}
	return nil
}

// gather gives the callers the last sync released a moment to append
// their next records before this sync starts. Without it, concurrent
// callers settle into two halves taking turns, each sync carrying half of
// them; with it, most syncs carry all of them. It yields until as many
// records are pending as there have ever been callers waiting at once (so
// a lone caller never waits), or for at most as long as the last sync
// took: a caller waits at worst two syncs instead of one, and in a burst
// the syncs nearly halve. w.mu is held on entry and exit.
func (w *journalWriter) gather() {
	if w.peakWaiters <= 1 {
		return
	}
	deadline := time.Now().Add(w.lastSync)
	for !w.syncing && w.appended-w.taken < w.peakWaiters && time.Now().Before(deadline) {
		w.mu.Unlock()
		runtime.Gosched()
		w.mu.Lock()
	}
}

// lead writes and syncs everything pending. w.mu is held on entry and
// exit, and released during the I/O so that others can keep appending.
func (w *journalWriter) lead() {
	buf, upto := w.pending, w.appended
	w.taken = upto
	w.pending, w.spare = w.spare[:0], nil
	w.syncing = true
	w.mu.Unlock()
	start := time.Now()
	err := w.writeAndSync(buf)
	took := time.Since(start)
	w.mu.Lock()
	w.lastSync = took
	w.syncing = false
	w.spare = buf[:0]
	if err != nil {
		w.err = fmt.Errorf("appending to journal %s: %w", w.f.Name(), err)
	} else {
		w.durable = upto
		w.syncs++
	}
	w.cond.Broadcast()
}

// Zero-filling grows the file by what it already holds, between these
// bounds, so a big apply grows it a handful of times.
const (
	minPrealloc = 1 << 20
	maxPrealloc = 16 << 20
)

// zeros is a block of zero bytes to fill the file with; never written to.
var zeros = make([]byte, 64<<10)

func (w *journalWriter) writeAndSync(buf []byte) error {
	if end := w.off + int64(len(buf)); end > w.size && !w.noPrealloc {
		w.noPrealloc = !w.prealloc(end)
	}
	if _, err := w.f.WriteAt(buf, w.off); err != nil {
		return err
	}
	w.off += int64(len(buf))
	w.size = max(w.size, w.off)
	return syncData(w.f)
}

// prealloc zero-fills the file to at least end, and reports whether it
// could. The sync that follows the batch's write covers the new blocks
// too. On failure the file is cut back to w.off, so that the zeros do not
// hold the space the records and the final snapshot need.
func (w *journalWriter) prealloc(end int64) bool {
	grow := min(max(w.size, minPrealloc), maxPrealloc)
	target := max(end, w.size+grow)
	for w.size < target {
		n := min(int64(len(zeros)), target-w.size)
		if _, err := w.f.WriteAt(zeros[:n], w.size); err != nil {
			if w.f.Truncate(w.off) == nil {
				w.size = w.off
			}
			return false
		}
		w.size += n
	}
	return true
}

// flush waits until everything appended so far is durable.
func (w *journalWriter) flush() error {
	w.mu.Lock()
	seq := w.appended
	w.mu.Unlock()
	return w.wait(seq)
}

// fail makes err the writer's sticky error (unless it has one already)
// and returns it: a record could not be appended, so nothing after it
// may be acknowledged.
func (w *journalWriter) fail(err error) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		w.err = err
	}
	w.cond.Broadcast()
	return w.err
}

// failure returns the sticky write or sync error, nil if there was none.
func (w *journalWriter) failure() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// close closes the file; the writer must be idle (flushed).
func (w *journalWriter) close() error {
	return w.f.Close()
}
