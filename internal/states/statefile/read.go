package statefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"

	"github.com/cairn-iac/cairn/internal/states"
)

// Read parses a version 4 state file. Errors are for people: they say what
// is wrong and where (line and column for JSON syntax errors, the resource
// and instance for bad entries). Read never panics on bad input.
//
// Fields Cairn does not know are ignored, so newer producers that add
// fields remain readable; check_results is read and dropped. Files of
// format version 3 or older must first be upgraded by Terraform. Empty
// input returns ErrNoState.
func Read(r io.Reader) (*File, error) {
	src, err := readAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading state: %w", err)
	}
	if len(bytes.TrimSpace(src)) == 0 {
		return nil, ErrNoState
	}
	doc, jsonErr := decodeJSON(src)
	// A syntax error leaves doc partly filled; nothing in it can be trusted.
	var syntaxErr *json.SyntaxError
	if errors.As(jsonErr, &syntaxErr) {
		line, col := position(src, syntaxErr.Offset)
		return nil, fmt.Errorf("state file is not valid JSON: line %d, column %d: %s", line, col, syntaxErr)
	}
	// The version is checked before any other decoding problem because an
	// older or newer format explains every later mismatch at once.
	if err := checkVersion(doc.Version, jsonErr); err != nil {
		return nil, err
	}
	if jsonErr != nil {
		return nil, describeDecodeError(src, jsonErr)
	}
	state, err := decodeState(doc)
	if err != nil {
		return nil, err
	}
	return &File{
		TerraformVersion: doc.TerraformVersion,
		Serial:           doc.Serial,
		Lineage:          doc.Lineage,
		State:            state,
	}, nil
}

// readAll reads r into a buffer sized up front when r can say how much it
// holds (a file, a bytes.Reader), which spares io.ReadAll's repeated
// growing and copying of a multi-megabyte state.
func readAll(r io.Reader) ([]byte, error) {
	size := 0
	switch r := r.(type) {
	case interface{ Stat() (fs.FileInfo, error) }:
		if fi, err := r.Stat(); err == nil && fi.Mode().IsRegular() {
			size = int(fi.Size())
		}
	case interface{ Len() int }:
		size = r.Len()
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	_, err := buf.ReadFrom(r)
	return buf.Bytes(), err
}

// decodeJSON decodes the document. It first strips the indentation, which
// is most of a state file's bytes, with a pass much cheaper than
// encoding/json's scanner, and leaves every attribute value in the
// canonical form Write reproduces. On error it decodes the original text
// again, so that positions in messages refer to the file as written.
func decodeJSON(src []byte) (*fileV4, error) {
	var doc fileV4
	if err := json.Unmarshal(appendCompact(make([]byte, 0, len(src)/2), src), &doc); err == nil {
		return &doc, nil
	}
	doc = fileV4{}
	err := json.Unmarshal(src, &doc)
	return &doc, err
}

func checkVersion(v json.Number, decodeErr error) error {
	if v == "" {
		if decodeErr != nil {
			return describeDecodeError(nil, decodeErr)
		}
		return fmt.Errorf("state file has no \"version\" field; it is not a Terraform state file")
	}
	n, err := strconv.ParseUint(string(v), 10, 64)
	if err != nil {
		return fmt.Errorf("state file has invalid format version %s: it must be a whole number", v)
	}
	switch {
	case n == formatVersion:
		return nil
	case n < formatVersion:
		return fmt.Errorf("state file uses format version %d; Cairn reads only version %d. "+
			"The state must be upgraded: run a Terraform 1.x command that writes state "+
			"(for example terraform apply -refresh-only) to convert it", n, formatVersion)
	default:
		return fmt.Errorf("state file uses unsupported format version %d; Cairn reads only version %d, "+
			"as written by Terraform 0.12 through 1.x", n, formatVersion)
	}
}

// describeDecodeError turns an encoding/json error that is not a syntax
// error into one that names the field, and the position when src is known.
func describeDecodeError(src []byte, err error) error {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		where := "the top level"
		if typeErr.Field != "" {
			where = fmt.Sprintf("field %q", typeErr.Field)
		}
		if src != nil {
			line, col := position(src, typeErr.Offset)
			return fmt.Errorf("invalid state file: line %d, column %d: %s must not be a JSON %s", line, col, where, typeErr.Value)
		}
		return fmt.Errorf("invalid state file: %s must not be a JSON %s", where, typeErr.Value)
	}
	return fmt.Errorf("invalid state file: %w", err)
}

// position converts a byte offset into a 1-based line and column.
func position(src []byte, offset int64) (line, col int) {
	if offset > int64(len(src)) {
		offset = int64(len(src))
	}
	before := src[:offset]
	line = 1 + bytes.Count(before, []byte("\n"))
	col = len(before) - bytes.LastIndexByte(before, '\n')
	return line, col
}

func decodeState(doc *fileV4) (*states.State, error) {
	s := states.NewState()
	for name, o := range doc.Outputs {
		ov, err := decodeOutput(o)
		if err != nil {
			return nil, fmt.Errorf("invalid state file: output %q: %w", name, err)
		}
		s.Outputs[name] = ov
	}
	cache := newAddrCache()
	for i := range doc.Resources {
		rs, err := decodeResource(&doc.Resources[i], cache)
		if err != nil {
			return nil, fmt.Errorf("invalid state file: resources[%d]%s: %w", i, describeResource(&doc.Resources[i]), err)
		}
		k := rs.Addr.UniqueKey()
		if s.Resources[k] != nil {
			return nil, fmt.Errorf("invalid state file: resources[%d]: resource %s appears more than once", i, rs.Addr)
		}
		s.Resources[k] = rs
	}
	return s, nil
}

// describeResource names a resource entry in an error, as far as its fields
// allow.
func describeResource(r *resourceV4) string {
	if r.Type == "" || r.Name == "" {
		return ""
	}
	addr := r.Type + "." + r.Name
	if r.Mode == modeData {
		addr = "data." + addr
	}
	if r.Module != "" {
		addr = r.Module + "." + addr
	}
	return " (" + addr + ")"
}
