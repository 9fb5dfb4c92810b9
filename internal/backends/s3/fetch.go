package s3

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/json"
	"fmt"
	"time"

	"github.com/cairn-iac/cairn/internal/backends/applyjournal"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

// fetched is the state object and its journal as read.
type fetched struct {
	snap *statefile.File
	// stale is set when the object is not stored as the transform would
	// write it (plaintext, or sealed by a fallback method).
	stale bool
	// journal is nil without journal objects; keys are those objects.
	journal *applyjournal.Journal
	keys    []string
	// status and classifyErr say how the journal stands to snap.
	status      applyjournal.Status
	classifyErr error
	// damage is set when a pending journal cannot be read to its end:
	// journal then holds the records before the damage.
	damage *applyjournal.DamageError
}

// view is the state a reader sees (applyjournal.View).
func (f *fetched) view(locked bool) (*statefile.File, error) {
	if f.damage != nil {
		return nil, f.damage
	}
	if f.journal != nil && f.classifyErr != nil {
		return nil, f.classifyErr
	}
	return applyjournal.View(f.snap, f.journal, locked)
}

// fetch reads the state object, then the journal objects. An apply
// finishing meanwhile deletes its journal after writing the object: a
// journal object that vanishes between the listing and its read means
// exactly that, and the whole read is made again.
//
// An object that exists but cannot be read (not a state, not
// decrypting) is a *statemgr.UnreadableError, never "no state": taking it
// for a new workspace would plan every object anew and overwrite it. An
// empty object is no state, as in Terraform.
func (s *State) fetch(ctx context.Context) (*fetched, error) {
	for attempt := 0; ; attempt++ {
		f, vanished, err := s.fetchOnce(ctx)
		if err != nil || !vanished || attempt == 4 {
			return f, err
		}
	}
}

func (s *State) fetchOnce(ctx context.Context) (_ *fetched, vanished bool, _ error) {
	data, found, err := s.readObject(ctx)
	if err != nil {
		return nil, false, err
	}
	out := &fetched{}
	if found && len(data) > 0 {
		out.stale = !s.storedCurrent(data)
		if out.snap, err = s.decodeSnapshot(data); err != nil {
			return nil, false, &statemgr.UnreadableError{Where: s.Location(), Err: err}
		}
	}
	keys, err := s.b.st.list(ctx, s.journalPrefix())
	if err != nil || len(keys) == 0 {
		return out, false, err
	}
	out.keys = keys
	out.journal = &applyjournal.Journal{}
	damaged := func(seq uint64, i int, reason string) (*fetched, bool, error) {
		out.damage = &applyjournal.DamageError{Where: "s3://" + s.b.cfg.Bucket + "/" + s.journalPrefix(), Seq: seq,
			Reason: reason, Kept: len(out.journal.Records), Unusable: len(keys) - i}
		return out, false, nil
	}
	if keys[0] != s.journalKey(0) {
		return damaged(0, 0, "the header object is missing")
	}
	head, ok, err := s.b.st.get(ctx, keys[0])
	if err != nil || !ok {
		return nil, !ok, err
	}
	if json.Unmarshal(head, &out.journal.Header) != nil || out.journal.Header.Format != journalFormat {
		out.journal.Header = applyjournal.Header{}
		return damaged(0, 0, "the header object is not a Cairn journal header")
	}
	out.status, out.classifyErr = applyjournal.Classify(out.snap, out.journal.Header)
	if out.classifyErr != nil || out.status == applyjournal.Stale {
		// Folded in already (or not this state's): its records are not
		// needed, only its keys, to delete it.
		return out, false, nil
	}
	next := uint64(1)
	for i, k := range keys[1:] {
		if k != s.journalKey(next) {
			return damaged(next, i+1, fmt.Sprintf("the object for record %d is missing (found %s)", next, k))
		}
		body, ok, err := s.b.st.get(ctx, k)
		if err != nil || !ok {
			return nil, !ok, err
		}
		var group []string
		if err := json.Unmarshal(body, &group); err != nil || len(group) == 0 {
			return damaged(next, i+1, fmt.Sprintf("the object for record %d is not a group of records", next))
		}
		for _, stored := range group {
			rec, err := applyjournal.Decode([]byte(stored), s.b.transform)
			if err != nil {
				return damaged(next, i+1, fmt.Sprintf("record %d: %s", next, err))
			}
			out.journal.Records = append(out.journal.Records, rec)
			next++
		}
	}
	return out, false, nil
}

// readObject reads the state object. With a lock table, the object must
// match the digest recorded there: S3 served stale reads before it was
// strongly consistent, and Terraform waits, then refuses, rather than
// read an older state. An object Terraform left empty reads as none.
func (s *State) readObject(ctx context.Context) ([]byte, bool, error) {
	deadline := time.Now().Add(s.b.consistencyFor)
	for {
		data, found, err := s.b.st.get(ctx, s.key)
		if err != nil || s.b.dynamo == nil {
			return data, found, err
		}
		want, derr := s.b.dynamo.Digest(ctx, s.lockPath())
		if derr != nil || len(want) == 0 {
			// Terraform goes on without the check when the digest cannot
			// be read; so does Cairn.
			return data, found, nil
		}
		var got []byte
		if found && len(data) > 0 {
			sum := md5.Sum(data)
			got = sum[:]
		}
		if bytes.Equal(want, got) {
			return data, found, nil
		}
		if time.Now().Add(s.b.consistencyEvery).After(deadline) {
			return nil, false, &DigestMismatchError{Where: s.Location(), Table: s.b.cfg.DynamoDBTable, Want: want, Got: got}
		}
		select {
		case <-time.After(s.b.consistencyEvery):
		case <-ctx.Done():
			return nil, false, ctx.Err()
		}
	}
}

// DigestMismatchError is a state object that never matched the digest
// the lock table records for it, within the time Terraform waits.
type DigestMismatchError struct {
	Where, Table string
	Want, Got    []byte // Got is nil when there is no object
}

func (e *DigestMismatchError) Error() string {
	return fmt.Sprintf("the state object %s does not match the digest DynamoDB table %s records for it (%x, the object's is %x): "+
		"a write may still be settling, so wait a minute and try again; if it persists and the object is the state you want, "+
		"set the Digest attribute of the item %q to %x", e.Where, e.Table, e.Want, e.Got, e.Where[len("s3://"):]+"-md5", e.Got)
}

// putDigest records data's MD5 in the lock table after a write.
func (s *State) putDigest(ctx context.Context, data []byte) error {
	if s.b.dynamo == nil {
		return nil
	}
	sum := md5.Sum(data)
	if err := s.b.dynamo.PutDigest(ctx, s.lockPath(), sum[:]); err != nil {
		return fmt.Errorf("%s is written, but its digest in DynamoDB table %s is not, so Terraform and Cairn will refuse to read it until it is: %w",
			s.Location(), s.b.cfg.DynamoDBTable, err)
	}
	return nil
}
