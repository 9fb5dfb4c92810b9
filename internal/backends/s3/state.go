package s3

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/cairn-iac/cairn/internal/backends"
	"github.com/cairn-iac/cairn/internal/backends/applyjournal"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

// State is one workspace's state object. Its methods are safe for
// concurrent use.
type State struct {
	b    *Backend
	name string
	key  string

	// mu serializes the manager's operations and guards rec and held.
	mu  sync.Mutex
	rec *Recorder
	// held is the lock this manager holds, nil when none.
	held *heldLock
}

var _ backends.StateMgr = (*State)(nil)

func newState(b *Backend, name string) *State {
	return &State{b: b, name: name, key: b.statePath(name)}
}

// Location is the state object's URL; never a credential.
func (s *State) Location() string { return "s3://" + s.b.cfg.Bucket + "/" + s.key }

// lockPath is "bucket/key": the lock info's Path and the lock table's
// item, as Terraform names them.
func (s *State) lockPath() string { return s.b.cfg.Bucket + "/" + s.key }

// FailureAdvice says what to do when the bucket failed mid-apply.
func (s *State) FailureAdvice() string {
	return "The state is stored in S3 (" + s.Location() + "), which could not be written: once the bucket " +
		"is reachable and accepting writes again (check the endpoint, the network and the credentials), " +
		"follow the steps given for the final state snapshot, then run the command again."
}

var errApplyOpen = errors.New("an apply started with BeginApply is still open")

// Read returns the state with any journal a crashed apply left replayed
// in memory; nil when the workspace has no state. It never writes and
// takes no lock.
func (s *State) Read() (*statefile.File, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rec != nil {
		return nil, fmt.Errorf("reading %s: %w", s.Location(), errApplyOpen)
	}
	f, err := s.fetch(context.Background())
	if err != nil {
		return nil, err
	}
	return f.view(s.held != nil)
}

// Persist writes st as the next snapshot if it differs from the stored
// one, and rewrites an unchanged one not stored as the transform writes
// it (see statemgr.Filesystem.Persist).
func (s *State) Persist(st *states.State) (*statefile.File, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rec != nil {
		return nil, fmt.Errorf("writing %s: %w", s.Location(), errApplyOpen)
	}
	ctx := context.Background()
	release, err := s.holdLocked(ctx, "OperationTypeApply")
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
		return s.writeSnapshot(ctx, f)
	})
}

// persistNew gives a new workspace its first, empty snapshot.
func (s *State) persistNew() (*statefile.File, error) { return s.Persist(states.NewState()) }

// Import replaces the snapshot with f, keeping its lineage and serial
// (see statemgr.Filesystem.Import). With force, an object or journal that
// cannot be read is replaced, the journal moved aside.
func (s *State) Import(f *statefile.File, force bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rec != nil {
		return fmt.Errorf("writing %s: %w", s.Location(), errApplyOpen)
	}
	ctx := context.Background()
	release, err := s.holdLocked(ctx, "OperationTypeImport")
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
		aside = "replaced-" + applyjournal.AsideStamp()
	case st.damage != nil:
		return st.damage
	case st.journal != nil && applyjournal.SupersededBy(st.journal.Header, f):
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
		// The journal is copied aside first: once the snapshot is
		// written the journal is stale, and would be deleted.
		_, keys, err := s.copyJournalAside(ctx, aside)
		if err != nil {
			return err
		}
		if err := s.writeSnapshot(ctx, next); err != nil {
			return err
		}
		return s.deleteJournal(ctx, keys)
	}
	if err := s.writeSnapshot(ctx, next); err != nil {
		return err
	}
	if st != nil && st.journal != nil {
		return s.deleteJournal(ctx, st.keys)
	}
	return nil
}

// Recover folds a crashed apply's journal into the state object now. A
// journal that cannot be read to its end is refused (an
// *applyjournal.DamageError) unless acceptLoss is set: then the records
// before the damage are folded in and every journal object is moved
// under key+".cairn-journal-damaged-<time>/", where it can be inspected.
func (s *State) Recover(acceptLoss bool) (*statemgr.Recovery, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rec != nil {
		return nil, fmt.Errorf("recovering %s: %w", s.Location(), errApplyOpen)
	}
	ctx := context.Background()
	release, err := s.holdLocked(ctx, "OperationTypeStateRecover")
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
	if st.journal != nil && st.status == applyjournal.Pending {
		n = len(st.journal.Records)
	}
	if _, err := s.recoverFetched(ctx, st); err != nil {
		return nil, err
	}
	return &statemgr.Recovery{Records: n}, nil
}

// foldDamaged copies the journal aside, writes the snapshot with the
// records before the damage when the header says they continue the
// stored snapshot, and then deletes the journal.
func (s *State) foldDamaged(ctx context.Context, st *fetched) (*statemgr.Recovery, error) {
	where, keys, err := s.copyJournalAside(ctx, "damaged-"+applyjournal.AsideStamp())
	if err != nil {
		return nil, err
	}
	out := &statemgr.Recovery{Damaged: where, Unusable: st.damage.Unusable}
	if st.damage.Seq > 0 && st.classifyErr == nil && st.status == applyjournal.Pending && len(st.journal.Records) > 0 {
		next := st.journal.Recovered(st.snap)
		if err := s.writeSnapshot(ctx, next); err != nil {
			return nil, fmt.Errorf("recovering the apply journal of %s: %w", s.Location(), err)
		}
		out.Records = len(st.journal.Records)
	}
	return out, s.deleteJournal(ctx, keys)
}

// current returns the stored snapshot, folding a crashed apply's journal
// in first. The lock must be held.
func (s *State) current(ctx context.Context) (*statefile.File, error) {
	st, err := s.fetch(ctx)
	if err != nil {
		return nil, err
	}
	return s.recoverFetched(ctx, st)
}

// recoverFetched writes what st's journal adds as a new snapshot (serial
// one above the journal's base) and then deletes the journal objects; a
// stale journal is just deleted. The lock must be held.
func (s *State) recoverFetched(ctx context.Context, st *fetched) (*statefile.File, error) {
	if st.damage != nil {
		return nil, st.damage
	}
	if st.journal == nil {
		return st.snap, nil
	}
	if st.classifyErr != nil {
		return nil, fmt.Errorf("%s and its apply journal disagree: %w", s.Location(), st.classifyErr)
	}
	if st.status == applyjournal.Stale || len(st.journal.Records) == 0 {
		return st.snap, s.deleteJournal(ctx, st.keys)
	}
	out := st.journal.Recovered(st.snap)
	if err := s.writeSnapshot(ctx, out); err != nil {
		return nil, fmt.Errorf("recovering the apply journal of %s: %w", s.Location(), err)
	}
	return out, s.deleteJournal(ctx, st.keys)
}

// encodeSnapshot is the one place a snapshot becomes the stored bytes:
// statefile's encoding, as the local backend writes it, through the
// transform.
func (s *State) encodeSnapshot(f *statefile.File) ([]byte, error) {
	src, err := statefile.Marshal(f)
	if err != nil {
		return nil, err
	}
	return s.b.transform.Encrypt(src)
}

// decodeSnapshot is the one place stored bytes become a snapshot.
func (s *State) decodeSnapshot(data []byte) (*statefile.File, error) {
	src, err := s.b.transform.Decrypt(data)
	if err != nil {
		return nil, err
	}
	return statefile.Read(bytes.NewReader(src))
}

// storedCurrent reports whether data is stored as the transform would
// write it; always so for a transform that cannot say.
func (s *State) storedCurrent(data []byte) bool {
	t, ok := s.b.transform.(interface{ Current(stored []byte) bool })
	return !ok || len(data) == 0 || t.Current(data)
}

// writeSnapshot writes f as the state object and records its digest in
// the lock table when there is one. The lock must be held.
func (s *State) writeSnapshot(ctx context.Context, f *statefile.File) error {
	data, err := s.encodeSnapshot(f)
	if err != nil {
		return fmt.Errorf("writing %s: %w", s.Location(), err)
	}
	if err := s.b.st.put(ctx, s.key, data, false); err != nil {
		return err
	}
	return s.putDigest(ctx, data)
}
