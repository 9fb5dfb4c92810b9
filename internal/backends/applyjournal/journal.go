package applyjournal

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

// Header names the snapshot an apply started from.
type Header struct {
	Format     string `json:"format"`
	Lineage    string `json:"lineage"`
	BaseSerial uint64 `json:"base_serial"`
	BaseExists bool   `json:"base_exists"`
}

// Record is one change; exactly one field is set.
type Record struct {
	Object *statefile.ObjectRecord `json:"object,omitempty"`
	Output *statefile.OutputRecord `json:"output,omitempty"`
}

// Apply makes the change to s.
func (r *Record) Apply(s *states.State) {
	switch {
	case r.Object != nil:
		r.Object.Apply(s)
	case r.Output != nil:
		r.Output.Apply(s)
	}
}

// ObjectRecord is the record of obj finishing at addr (nil: removed).
func ObjectRecord(addr addrs.AbsResourceInstanceObject, obj *states.ObjectSrc, provider addrs.AbsProviderConfig) Record {
	return Record{Object: &statefile.ObjectRecord{Addr: addr.ResourceInstance, Deposed: addr.DeposedKey, Provider: provider, Object: obj}}
}

// OutputRecord is the record of a root output's value (nil: removed).
func OutputRecord(name string, v *states.OutputValue) Record {
	return Record{Output: &statefile.OutputRecord{Name: name, Value: v}}
}

// Encode is the record's plaintext, sealed by t when t is set (compactly,
// with t's EncryptRecord, when it has one: an apply seals one record per
// finished instance).
func (r *Record) Encode(t statemgr.Encryption) ([]byte, error) {
	src, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	if t == nil {
		return src, nil
	}
	if re, ok := t.(interface{ EncryptRecord([]byte) ([]byte, error) }); ok {
		return re.EncryptRecord(src)
	}
	return t.Encrypt(src)
}

// Decode opens a stored record (through t when set) and checks it holds
// exactly one change.
func Decode(stored []byte, t statemgr.Encryption) (Record, error) {
	var rec Record
	src := stored
	if t != nil {
		var err error
		if src, err = t.Decrypt(stored); err != nil {
			return rec, err
		}
	}
	if err := json.Unmarshal(src, &rec); err != nil {
		return rec, err
	}
	if (rec.Object == nil) == (rec.Output == nil) {
		return rec, errors.New("it holds no change, or two")
	}
	return rec, nil
}

// Journal is a header and the records read after it.
type Journal struct {
	Header  Header
	Records []Record
}

// Replay is snap with the records applied; serial and lineage are the
// header's base.
func (j *Journal) Replay(snap *statefile.File) *statefile.File {
	out := &statefile.File{TerraformVersion: statemgr.TerraformVersion, Lineage: j.Header.Lineage, Serial: j.Header.BaseSerial, State: states.NewState()}
	if snap != nil {
		out.State = snap.State.DeepCopy()
	}
	for i := range j.Records {
		j.Records[i].Apply(out.State)
	}
	return out
}

// Status says how a journal stands to the stored snapshot.
type Status int

const (
	// Pending: the snapshot is still the apply's base; the records add
	// to it.
	Pending Status = iota
	// Stale: the snapshot moved past the base; the records are in it.
	Stale
)

// Classify applies the local journal's rules (statemgr's load.go): a
// journal is pending while the snapshot is its base, stale once the
// snapshot moved past it, and an error when they cannot belong together.
func Classify(snap *statefile.File, h Header) (Status, error) {
	switch {
	case snap == nil && h.BaseExists:
		return 0, fmt.Errorf("the apply journal continues serial %d of lineage %s, but there is no state", h.BaseSerial, h.Lineage)
	case snap == nil:
		return Pending, nil
	case snap.Lineage != h.Lineage:
		return 0, fmt.Errorf("the apply journal belongs to lineage %s, the state to lineage %s", h.Lineage, snap.Lineage)
	case !h.BaseExists, h.BaseSerial < snap.Serial:
		return Stale, nil
	case h.BaseSerial == snap.Serial:
		return Pending, nil
	default:
		return 0, fmt.Errorf("the apply journal continues serial %d, but the state has the older serial %d", h.BaseSerial, snap.Serial)
	}
}

// View is the state a reader sees: snap with a pending journal replayed.
// With the lock held (locked) no apply is running, so the journal is a
// crashed one and the view gets the serial recovery will write;
// otherwise the base serial, so that a plan made from a running apply's
// partial view never matches its final snapshot.
func View(snap *statefile.File, j *Journal, locked bool) (*statefile.File, error) {
	if j == nil {
		return snap, nil
	}
	status, err := Classify(snap, j.Header)
	if err != nil || status == Stale {
		return snap, err
	}
	out := j.Replay(snap)
	if locked && len(j.Records) > 0 {
		out.Serial = j.Header.BaseSerial + 1
	}
	return out, nil
}

// SupersededBy reports whether next replaces the crashed apply h began:
// the errored.tfstate that apply saved when it could not reach its
// storage continues h's lineage above its base and holds every record.
func SupersededBy(h Header, next *statefile.File) bool {
	return next != nil && next.Lineage == h.Lineage && next.Serial > h.BaseSerial
}

// Recovered is what the journal adds to snap, its base, as the snapshot
// recovery writes: one serial above the journal's base.
func (j *Journal) Recovered(snap *statefile.File) *statefile.File {
	out := j.Replay(snap)
	out.Serial = j.Header.BaseSerial + 1
	return out
}
