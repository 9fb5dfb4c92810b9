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
//	{"format":"cairn-apply-journal","version":1,"lineage":"…","base_serial":7,"base_exists":true}
//	{"object":{"mode":"managed","type":"terraform_data","name":"a",…,"instance":{…}}}
//	{"output":{"name":"id","value":"…","type":"string"}}
//
// Records reuse the state file's encoding (statefile.ObjectRecord and
// OutputRecord). Appends are made durable in groups (journalWriter), and a
// group is written only after the previous one is durable, so everything
// acknowledged lies before anything a crash can damage. Reading therefore
// stops at the first line that is incomplete or does not parse: that line
// and what follows were never acknowledged.

const (
	journalFormat  = "cairn-apply-journal"
	journalVersion = 1
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

// journalLine is one record line; exactly one field is set.
type journalLine struct {
	Object *statefile.ObjectRecord `json:"object,omitempty"`
	Output *statefile.OutputRecord `json:"output,omitempty"`
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
	records  []journalLine
	// dropped counts bytes after the last good record (a torn tail).
	dropped int
}

// readJournal reads the journal at path, or returns nil if there is none.
func readJournal(path string) (*journal, error) {
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
	return j, nil
}

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
	if j.header.Version != journalVersion {
		return nil, fmt.Errorf("unsupported journal version %d", j.header.Version)
	}
	j.complete = true
	rest := src[nl+1:]
	for len(rest) > 0 && rest[0] != 0 {
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			break
		}
		var line journalLine
		if json.Unmarshal(rest[:nl], &line) != nil || (line.Object == nil) == (line.Output == nil) {
			break
		}
		j.records = append(j.records, line)
		rest = rest[nl+1:]
	}
	// Count what was cut off, but not the zero-filled space after it.
	j.dropped = len(bytes.TrimRight(rest, "\x00"))
	return j, nil
}

// createJournal creates (or truncates) the journal with its header, and
// makes both the header and the file's directory entry durable before
// returning, so that the first acknowledged record can be found.
func createJournal(path string, h journalHeader) (*journalWriter, error) {
	h.Format, h.Version = journalFormat, journalVersion
	head, err := json.Marshal(&h)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
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
	if err := syncDir(filepath.Dir(path)); err != nil {
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

// encodeObjectLine returns the journal line for an object change.
func encodeObjectLine(r *statefile.ObjectRecord) ([]byte, error) {
	b, err := r.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return wrapLine(`{"object":`, b), nil
}

// encodeOutputLine returns the journal line for an output change.
func encodeOutputLine(r *statefile.OutputRecord) ([]byte, error) {
	b, err := r.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return wrapLine(`{"output":`, b), nil
}

func wrapLine(prefix string, body []byte) []byte {
	line := make([]byte, 0, len(prefix)+len(body)+2)
	line = append(line, prefix...)
	line = append(line, body...)
	return append(line, '}', '\n')
}
