package s3

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// The journal of an apply on workspace key K lives under K+".cairn-journal/":
//
//	K.cairn-journal/00000000000000000000   the header (applyjournal.Header)
//	K.cairn-journal/00000000000000000001   records 1..n: a JSON array of
//	K.cairn-journal/000000000000000000n+1  stored records, the next group
//
// Each record object is named for its first record's sequence number,
// zero-padded so that S3's lexical listing is the journal's order, and
// holds the records committed together (a group: an object is written
// whole or not at all). A group is written only after the previous one
// is durable, so the objects always form an unbroken sequence; one
// missing from the middle was deleted by hand. Terraform never lists
// these keys as workspaces: a workspace's key is exactly
// prefix/NAME/K.
const journalFormat = "cairn-s3-journal/1"

func (s *State) journalPrefix() string { return s.key + ".cairn-journal/" }

func (s *State) journalKey(seq uint64) string {
	return fmt.Sprintf("%s%020d", s.journalPrefix(), seq)
}

// deleteJournal deletes the journal objects keys (listed now when nil):
// the records first, in batches, the header last, so that a deletion cut
// short leaves the header, by which the stored snapshot marks what is
// left stale (the journal is deleted only once the snapshot holds it).
func (s *State) deleteJournal(ctx context.Context, keys []string) error {
	if keys == nil {
		var err error
		if keys, err = s.b.st.list(ctx, s.journalPrefix()); err != nil {
			return err
		}
	}
	if len(keys) == 0 {
		return nil
	}
	head, records := keys[0], keys[1:]
	if head != s.journalKey(0) {
		head, records = "", keys
	}
	err := s.b.st.delMany(ctx, records)
	if err == nil && head != "" {
		err = s.b.st.del(ctx, head)
	}
	if err != nil {
		return fmt.Errorf("removing the apply journal of %s: %w", s.Location(), err)
	}
	return nil
}

// moveJournal copies every journal object under
// K+".cairn-journal-<suffix>/" and deletes the originals, so that no
// command reads them again while they can still be inspected. It returns
// where they went.
func (s *State) moveJournal(ctx context.Context, suffix string) (string, error) {
	keys, err := s.b.st.list(ctx, s.journalPrefix())
	if err != nil {
		return "", err
	}
	aside := s.key + ".cairn-journal-" + suffix + "/"
	for _, k := range keys {
		if err := s.b.st.copy(ctx, k, aside+strings.TrimPrefix(k, s.journalPrefix())); err != nil {
			return "", fmt.Errorf("setting the apply journal of %s aside: %w", s.Location(), err)
		}
	}
	if err := s.deleteJournal(ctx, keys); err != nil {
		return "", err
	}
	return "s3://" + s.b.cfg.Bucket + "/" + aside, nil
}

// StoredAt lists where the workspace's state is held: its object and a
// crashed apply's journal, each when there is one. A first apply killed
// before it wrote the object leaves the whole state in the journal.
func (s *State) StoredAt() ([]string, error) {
	ctx := context.Background()
	_, found, err := s.b.st.get(ctx, s.key)
	if err != nil {
		return nil, err
	}
	keys, err := s.b.st.list(ctx, s.journalPrefix())
	if err != nil {
		return nil, err
	}
	var out []string
	if found {
		out = append(out, s.Location())
	}
	if len(keys) > 0 {
		out = append(out, "s3://"+s.b.cfg.Bucket+"/"+s.journalPrefix())
	}
	return out, nil
}

// commitGroup writes records first, first+1, … as one object. A retry
// after a lost acknowledgement writes the same object again, which is
// harmless: the key and the bytes are the same.
func (s *State) commitGroup(ctx context.Context, first uint64, records []string) error {
	body, err := json.Marshal(records)
	if err != nil {
		return err
	}
	return s.b.st.put(ctx, s.journalKey(first), body, false)
}
