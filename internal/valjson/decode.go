package valjson

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// Unmarshal decodes src as a value of type ty, exactly as
// cty/json.Unmarshal would.
func Unmarshal(src []byte, ty cty.Type) (cty.Value, error) {
	d := decoder{src: src}
	v, err := d.value(ty)
	if err == nil {
		d.skipSpace()
		if d.pos != len(d.src) {
			err = errFallback
		}
	}
	if err != nil {
		return ctyUnmarshal(src, ty)
	}
	return v, nil
}

// ctyUnmarshal calls cty/json, turning a panic into an error: cty/json
// v1.19 panics on some malformed input (a short array for a tuple type),
// and state files are input.
func ctyUnmarshal(src []byte, ty cty.Type) (v cty.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = cty.NilVal, fmt.Errorf("invalid JSON value for %s", ty.FriendlyName())
		}
	}()
	return ctyjson.Unmarshal(src, ty)
}

// errFallback means "not a case this decoder handles": cty/json decides.
var errFallback = errors.New("fall back to cty/json")

type decoder struct {
	src []byte
	pos int
}

func (d *decoder) skipSpace() {
	for d.pos < len(d.src) {
		switch d.src[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *decoder) peek() byte {
	d.skipSpace()
	if d.pos >= len(d.src) {
		return 0
	}
	return d.src[d.pos]
}

// literal consumes word (null, true, false) if it is next.
func (d *decoder) literal(word string) bool {
	if len(d.src)-d.pos >= len(word) && string(d.src[d.pos:d.pos+len(word)]) == word {
		d.pos += len(word)
		return true
	}
	return false
}

func (d *decoder) value(ty cty.Type) (cty.Value, error) {
	c := d.peek()
	if c == 'n' {
		if !d.literal("null") {
			return cty.NilVal, errFallback
		}
		return cty.NullVal(ty), nil
	}
	switch {
	case ty == cty.DynamicPseudoType:
		return d.dynamic()
	case ty == cty.String:
		if c != '"' {
			return cty.NilVal, errFallback
		}
		s, err := d.str()
		if err != nil {
			return cty.NilVal, err
		}
		return cty.StringVal(s), nil
	case ty == cty.Number:
		return d.number()
	case ty == cty.Bool:
		switch {
		case d.literal("true"):
			return cty.True, nil
		case d.literal("false"):
			return cty.False, nil
		}
		return cty.NilVal, errFallback
	case ty.IsObjectType():
		return d.object(ty)
	case ty.IsMapType():
		return d.mapVal(ty.ElementType())
	case ty.IsListType(), ty.IsSetType():
		return d.sequence(ty)
	case ty.IsTupleType():
		return d.tuple(ty.TupleElementTypes())
	}
	return cty.NilVal, errFallback
}

func (d *decoder) number() (cty.Value, error) {
	start := d.pos
	if !d.scanNumber() {
		return cty.NilVal, errFallback
	}
	text := string(d.src[start:d.pos])
	if n, err := strconv.ParseInt(text, 10, 64); err == nil {
		// Integers are exact as int64; this avoids big.Float parsing.
		return cty.NumberIntVal(n), nil
	}
	v, err := cty.ParseNumberVal(text)
	if err != nil {
		return cty.NilVal, errFallback
	}
	return v, nil
}

// scanNumber consumes a number in strict JSON grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *decoder) scanNumber() bool {
	digits := func() int {
		n := 0
		for d.pos < len(d.src) && d.src[d.pos] >= '0' && d.src[d.pos] <= '9' {
			d.pos++
			n++
		}
		return n
	}
	if d.pos < len(d.src) && d.src[d.pos] == '-' {
		d.pos++
	}
	if d.pos < len(d.src) && d.src[d.pos] == '0' {
		d.pos++
	} else if digits() == 0 {
		return false
	}
	if d.pos < len(d.src) && d.src[d.pos] == '.' {
		d.pos++
		if digits() == 0 {
			return false
		}
	}
	if d.pos < len(d.src) && (d.src[d.pos] == 'e' || d.src[d.pos] == 'E') {
		d.pos++
		if d.pos < len(d.src) && (d.src[d.pos] == '+' || d.src[d.pos] == '-') {
			d.pos++
		}
		if digits() == 0 {
			return false
		}
	}
	// A number must not run into more number-like bytes ("01", "1.2.3").
	if d.pos < len(d.src) {
		switch c := d.src[d.pos]; {
		case c >= '0' && c <= '9', c == '.', c == 'e', c == 'E', c == '+', c == '-':
			return false
		}
	}
	return true
}

// str reads a JSON string. Strings without escapes are sliced directly.
func (d *decoder) str() (string, error) {
	if d.peek() != '"' {
		return "", errFallback
	}
	d.pos++
	start := d.pos
	for d.pos < len(d.src) {
		c := d.src[d.pos]
		switch {
		case c == '"':
			s := d.src[start:d.pos]
			d.pos++
			if !utf8.Valid(s) {
				return "", errFallback
			}
			return string(s), nil
		case c == '\\':
			return d.escapedStr(start - 1)
		case c < 0x20:
			return "", errFallback
		}
		d.pos++
	}
	return "", errFallback
}

// escapedStr finds the end of a string with escapes and unquotes it with
// strconv, which accepts every JSON escape except \/ (handled first).
func (d *decoder) escapedStr(open int) (string, error) {
	i := open + 1
	for i < len(d.src) {
		switch d.src[i] {
		case '\\':
			i += 2
			continue
		case '"':
			raw := d.src[open : i+1]
			d.pos = i + 1
			return unquote(raw)
		}
		i++
	}
	return "", errFallback
}
