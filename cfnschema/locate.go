package cfnschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

// lineCol converts a byte offset in src into a 1-based line and column
// (columns count bytes). Offsets outside src are clamped.
func lineCol(src []byte, offset int64) (line, col int) {
	if offset < 0 {
		offset = 0
	}
	if offset > int64(len(src)) {
		offset = int64(len(src))
	}
	before := src[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(offset) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// locatePointer returns the line and column at which the value addressed by
// the JSON pointer starts in src, or 0, 0 when the pointer does not address a
// value. It re-scans the document, which is fine because it only runs when a
// diagnostic is reported.
func locatePointer(src []byte, pointer string) (line, col int) {
	tokens, err := cloudcontrol.ParsePointer(pointer)
	if err != nil {
		return 0, 0
	}
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	for _, want := range tokens {
		if !descend(dec, want) {
			return 0, 0
		}
	}
	// The decoder stops just after the key's colon; skip whitespace to the
	// value itself.
	off := dec.InputOffset()
	for off < int64(len(src)) && (src[off] == ' ' || src[off] == '\n' || src[off] == '\r' || src[off] == '\t' || src[off] == ':' || src[off] == ',') {
		off++
	}
	return lineCol(src, off)
}

// descend reads the next value from dec, which must be an object or array,
// and positions dec right before the member or element named want.
func descend(dec *json.Decoder, want string) bool {
	tok, err := dec.Token()
	if err != nil {
		return false
	}
	switch tok {
	case json.Delim('{'):
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return false
			}
			if key == want {
				return true
			}
			if !skipValue(dec) {
				return false
			}
		}
	case json.Delim('['):
		idx, err := strconv.Atoi(want)
		if err != nil || idx < 0 {
			return false
		}
		for i := 0; dec.More(); i++ {
			if i == idx {
				return true
			}
			if !skipValue(dec) {
				return false
			}
		}
	}
	return false
}

// skipValue consumes one complete value from dec.
func skipValue(dec *json.Decoder) bool {
	var raw json.RawMessage
	return dec.Decode(&raw) == nil
}

// decodeErrorPointer turns an encoding/json error into a JSON pointer and a
// byte offset, as far as the error allows.
func decodeErrorPointer(err error) (pointer string, offset int64) {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return "", syn.Offset
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		if typ.Field != "" {
			pointer = "/" + strings.ReplaceAll(typ.Field, ".", "/")
		}
		return pointer, typ.Offset
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "", -1
	}
	return "", -1
}
