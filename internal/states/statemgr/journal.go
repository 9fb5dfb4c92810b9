package statemgr

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
)

// The journal is JSON lines. The first line is a header naming the
// snapshot the apply started from; every other line is one record, an
// object change or an output change, in the order they were made:
//
//	{"format":"cairn-apply-journal","version":2,"lineage":"…","base_serial":7,"base_exists":true}
//	{"seq":1,"object":{"mode":"managed","type":"terraform_data","name":"a",…,"instance":{…}},"crc":"1c291ca3"}
//	{"seq":2,"output":{"name":"id","value":"…","type":"string"},"crc":"5e9c0a1f"}
//
// Records reuse the state file's encoding (statefile.ObjectRecord and
// OutputRecord). seq numbers the records from 1 without gaps, and crc is
// the CRC-32C of the line up to the `,"crc"` that ends it, so that a lost,
// repeated, reordered or altered line is found rather than replayed.
//
// Appends are made durable in groups (journalWriter), and a group is
// written only after the previous one is durable, so everything
// acknowledged lies before anything a crash can damage: a crash can leave
// only an incomplete last line (a torn tail), which was never acknowledged
// and is ignored. A bad line with complete lines after it is different:
// those lines may have been acknowledged, so reading reports the damage
// (JournalDamageError) instead of guessing. Version 1 journals (no seq or
// crc) are still read.

const (
	journalFormat  = "cairn-apply-journal"
	journalVersion = 2
)

type journalHeader struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	Lineage string `json:"lineage"`
	// BaseSerial and BaseExists identify the snapshot the apply started
	// from; BaseExists is false when there was none.
	BaseSerial uint64 `json:"base_serial"`
	BaseExists bool   `json:"base_exists"`
}

// journalLine is one record line; exactly one of Object, Output and
// Sealed is set. Sealed is an encrypted record (see sealRecord): an
// OpenTofu envelope whose plaintext is {"object":…} or {"output":…}; it
// is replaced by what it holds once the journal is read (unseal).
type journalLine struct {
	Seq    uint64                  `json:"seq,omitempty"`
	Object *statefile.ObjectRecord `json:"object,omitempty"`
	Output *statefile.OutputRecord `json:"output,omitempty"`
	Sealed json.RawMessage         `json:"sealed,omitempty"`
	CRC    string                  `json:"crc,omitempty"`
}

func (l *journalLine) apply(s *states.State) {
	switch {
	case l.Object != nil:
		l.Object.Apply(s)
	case l.Output != nil:
		l.Output.Apply(s)
	}
}

// journal is a journal file as read back.
type journal struct {
	header journalHeader
	// complete is false when the header line itself is incomplete: the
	// apply died while starting, before anything was acknowledged.
	complete bool
	// records are the lines read, up to the first bad one.
	records []journalLine
	// torn counts the bytes of an incomplete last line (the torn tail),
	// not counting the zero-filled space after it.
	torn int
	// damage is set when a bad line has complete lines after it: records
	// after it may have been acknowledged.
	damage *journalDamage
	// salvaged are the readable records after the damage (see salvage).
	salvaged []journalLine
	// plain is the first record written in the clear, kept to ask the
	// encryption whether plaintext is acceptable (see unseal).
	plain []byte
}

// journalDamage locates the first unreadable line of a damaged journal.
type journalDamage struct {
	// Line is the line number (the header is line 1), Offset the byte
	// offset where the line starts.
	Line   int
	Offset int
	// After counts the complete lines after the bad one. Salvaged counts
	// the whole records from the bad line on that continue the sequence
	// (see salvage), and Missing the sequence numbers below the last of
	// them found nowhere.
	After    int
	Salvaged int
	Missing  int
	Reason   string
}

// JournalDamageError reports a journal that could not be read to its end:
// a line other than the last is unreadable, so records after it, which
// may have been acknowledged, would be lost by replaying only what comes
// before it. Nothing is changed when it is returned.
type JournalDamageError struct {
	Path string
	journalDamage
	// Kept counts the readable records before the damage.
	Kept int
}

func (e *JournalDamageError) Error() string {
	return fmt.Sprintf("the apply journal %s is damaged at line %d (byte %d): %s; "+
		"the %d records before it and %d whole records from it on can be recovered, "+
		"but %d lines cannot be used and %d records are missing from the sequence, "+
		"and they may record objects that exist",
		e.Path, e.Line, e.Offset, e.Reason, e.Kept, e.Salvaged, e.Unusable(), e.Missing)
}

// Unusable counts the lines recovery cannot use, from the damaged one on:
// unreadable, or repeating a record.
func (e *JournalDamageError) Unusable() int { return 1 + e.After - e.Salvaged }

// readJournal reads the journal at path, decrypting its records with enc,
// or returns nil if there is none.
func readJournal(path string, enc Encryption) (*journal, error) {
	src, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading journal %s: %w", path, err)
	}
	j, err := parseJournal(src)
	if err != nil {
		return nil, fmt.Errorf("reading journal %s: %w", path, err)
	}
	if err := j.unseal(enc); err != nil {
		return nil, fmt.Errorf("reading journal %s: %w", path, err)
	}
	return j, nil
}

// parseJournal reads a journal's header and records. An error means the
// header is unusable; damage to the records is described in the result.
func parseJournal(src []byte) (*journal, error) {
	j := &journal{}
	nl := bytes.IndexByte(src, '\n')
	if nl < 0 {
		return j, nil
	}
	if err := json.Unmarshal(src[:nl], &j.header); err != nil {
		return nil, fmt.Errorf("invalid header: %w", err)
	}
	if j.header.Format != journalFormat {
		return nil, fmt.Errorf("not a Cairn apply journal (format %q)", j.header.Format)
	}
	if v := j.header.Version; v != 1 && v != journalVersion {
		return nil, fmt.Errorf("unsupported journal version %d", v)
	}
	// The header has no checksum; it must be exactly as written instead,
	// or damage could turn the first record into part of it unseen.
	if canonical, _ := json.Marshal(&j.header); !bytes.Equal(canonical, src[:nl]) {
		return nil, errors.New("invalid header: it is not as Cairn writes it")
	}
	j.complete = true
	off, lineNo := nl+1, 2
	for off < len(src) {
		rest := src[off:]
		end := bytes.IndexByte(rest, '\n')
		if end < 0 {
			j.lastLine(src, off, lineNo)
			return j, nil
		}
		line, err := parseLine(rest[:end], j.header.Version, uint64(len(j.records))+1)
		if err != nil {
			j.endAt(src, off, lineNo, err.Error())
			return j, nil
		}
		j.notePlain(line, rest[:end])
		j.records = append(j.records, line)
		off += end + 1
		lineNo++
	}
	return j, nil
}

// lastLine handles a last line without a newline: a version 2 record
// whose checksum holds is complete (only its newline was lost) and kept;
// anything else is the torn tail.
func (j *journal) lastLine(src []byte, off, lineNo int) {
	body := bytes.TrimRight(src[off:], "\x00")
	if j.header.Version >= 2 && len(body) > 0 {
		if line, err := parseLine(body, j.header.Version, uint64(len(j.records))+1); err == nil {
			j.notePlain(line, body)
			j.records = append(j.records, line)
			return
		}
	}
	j.endAt(src, off, lineNo, "the line is incomplete")
}

// endAt classifies the bad line at off: the torn tail when nothing but
// zero fill follows its start without a newline, damage otherwise.
func (j *journal) endAt(src []byte, off, lineNo int, reason string) {
	rest := bytes.TrimRight(src[off:], "\x00")
	after := bytes.Count(rest, []byte{'\n'})
	if after == 0 {
		j.torn = len(rest)
		return
	}
	// The bad line itself ends in a newline: only the lines after it count.
	j.damage = &journalDamage{Line: lineNo, Offset: off, After: after - 1, Reason: reason}
	j.salvage(src, off)
}

// parseLine decodes one record line; want is the sequence number it must
// carry (version 2), or 0 for any.
func parseLine(b []byte, version int, want uint64) (journalLine, error) {
	var line journalLine
	if version >= 2 {
		if err := checkCRC(b); err != nil {
			return line, err
		}
	}
	if err := json.Unmarshal(b, &line); err != nil {
		return line, fmt.Errorf("the line is not a record: %v", err)
	}
	if n := countSet(line.Object != nil, line.Output != nil, line.Sealed != nil); n != 1 {
		return line, errors.New("the line holds no record, or two")
	}
	if version >= 2 && want != 0 && line.Seq != want {
		return line, fmt.Errorf("record %d found where record %d belongs (a line is missing, repeated or out of order)", line.Seq, want)
	}
	return line, nil
}

func countSet(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// notePlain keeps the first record line written in the clear.
func (j *journal) notePlain(line journalLine, raw []byte) {
	if j.plain == nil && line.Sealed == nil {
		j.plain = append([]byte(nil), raw...)
	}
}

// replay returns the snapshot with the journal's records applied. Serial
// and lineage are still the base's: nothing new has been written yet.
func (j *journal) replay(snap *statefile.File) *statefile.File {
	out := &statefile.File{TerraformVersion: TerraformVersion, Lineage: j.header.Lineage, Serial: j.header.BaseSerial, State: states.NewState()}
	if snap != nil {
		out.State = snap.State.DeepCopy()
	}
	for _, r := range j.records {
		r.apply(out.State)
	}
	return out
}

// createJournal creates (or truncates) the journal with its header, and
// makes both the header and the file's directory entry durable before
// returning, so that the first acknowledged record can be found.
func createJournal(fsys fileSystem, path string, h journalHeader) (*journalWriter, error) {
	h.Format, h.Version = journalFormat, journalVersion
	head, err := json.Marshal(&h)
	if err != nil {
		return nil, err
	}
	f, err := fsys.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("creating journal %s: %w", path, err)
	}
	head = append(head, '\n')
	if _, err := f.Write(head); err != nil {
		f.Close()
		return nil, fmt.Errorf("creating journal %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, fmt.Errorf("creating journal %s: %w", path, err)
	}
	if err := syncDir(fsys, filepath.Dir(path)); err != nil {
		f.Close()
		return nil, fmt.Errorf("creating journal %s: %w", path, err)
	}
	return newJournalWriter(f, int64(len(head))), nil
}

// removeJournal removes a journal whose content is in the snapshot. The
// removal need not be durable: a journal that reappears after a crash is
// recognized as stale by its header.
func removeJournal(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("removing journal %s: %w", path, err)
	}
	return nil
}

// encodeObjectBody returns the body of the journal line for an object
// change; journalWriter.append frames it.
func encodeObjectBody(r *statefile.ObjectRecord) ([]byte, error) {
	b, err := r.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return append([]byte(`"object":`), b...), nil
}

// encodeOutputBody returns the body of the journal line for an output
// change.
func encodeOutputBody(r *statefile.OutputRecord) ([]byte, error) {
	b, err := r.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return append([]byte(`"output":`), b...), nil
}
