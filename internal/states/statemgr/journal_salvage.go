package statemgr

import (
	"bytes"
	"cmp"
	"slices"

	"github.com/cairn-iac/cairn/internal/states"
)

// Damage in the middle of a journal (a bad disk block, a hand edit) leaves
// records after it that are whole: each version 2 line carries its own
// sequence number and checksum, so a line after the damage can be trusted
// on its own. They record objects that exist — often most of an apply's
// work — so recovery keeps them rather than only the records before the
// damage, which would forget every object created after it.
//
// One rule keeps salvage from losing an object: a salvaged record that
// removes an object is not applied. The record before it that went
// missing may have been the one that moved the object elsewhere (a
// create_before_destroy deposes the current object, then clears it);
// keeping an object that is really gone costs one refresh, which finds it
// missing, while dropping one that exists leaks it.

// salvage collects the readable records from the damaged line starting
// at off to the end: version 2 lines whose checksum holds and whose
// sequence numbers come after the last record kept, put back in sequence
// order with repeats dropped, so that a line out of place or written
// twice is still used. A last line without a newline is tried as well.
func (j *journal) salvage(src []byte, off int) {
	if j.header.Version < 2 {
		return
	}
	kept := uint64(len(j.records))
	for off < len(src) {
		rest := src[off:]
		end := bytes.IndexByte(rest, '\n')
		line := rest
		if end >= 0 {
			line = rest[:end]
		} else {
			line = bytes.TrimRight(rest, "\x00")
		}
		if r, err := parseLine(line, j.header.Version, 0); err == nil && r.Seq > kept {
			j.salvaged = append(j.salvaged, r)
		}
		if end < 0 {
			break
		}
		off += end + 1
	}
	slices.SortStableFunc(j.salvaged, func(a, b journalLine) int { return cmp.Compare(a.Seq, b.Seq) })
	j.salvaged = slices.CompactFunc(j.salvaged, func(a, b journalLine) bool { return a.Seq == b.Seq })
	j.damage.Salvaged = len(j.salvaged)
	if n := len(j.salvaged); n > 0 {
		j.damage.Missing = int(j.salvaged[n-1].Seq-kept) - n
	}
}

// replaySalvaged applies the salvaged records to s, except those removing
// an object; it returns how many removals it left out.
func (j *journal) replaySalvaged(s *states.State) (keptRemoved int) {
	for _, r := range j.salvaged {
		if r.Object != nil && r.Object.Object == nil {
			keptRemoved++
			continue
		}
		r.apply(s)
	}
	return keptRemoved
}
