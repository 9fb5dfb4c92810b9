package valjson

import (
	"encoding/json"
	"sort"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// Marshal encodes v as type ty exactly as cty/json.Marshal does, byte for
// byte. Writing state encoded every applied object with cty/json, which
// quotes each string through encoding/json's reflection and each attribute
// name through a normalizing cty.StringVal; this encoder appends plain
// strings directly. Whatever it does not handle itself (marks, unknowns,
// infinities, capsules, strings needing escapes) it hands to cty/json or
// encoding/json, so results and errors are always theirs. A differential
// fuzz test holds it to that.
func Marshal(v cty.Value, ty cty.Type) ([]byte, error) {
	e := encoder{buf: make([]byte, 0, 128)}
	if e.value(v, ty) {
		return e.buf, nil
	}
	return ctyjson.Marshal(v, ty)
}

type encoder struct {
	buf []byte
}

// value appends v, or reports false for a case cty/json must decide.
func (e *encoder) value(v cty.Value, ty cty.Type) bool {
	if v.IsMarked() || !v.IsKnown() {
		return false
	}
	if ty == cty.DynamicPseudoType && v.Type() != cty.DynamicPseudoType {
		return e.dynamic(v)
	}
	if v.IsNull() {
		e.buf = append(e.buf, "null"...)
		return true
	}
	switch {
	case ty == cty.String:
		return e.str(v.AsString())
	case ty == cty.Number:
		if v.RawEquals(cty.PositiveInfinity) || v.RawEquals(cty.NegativeInfinity) {
			return false
		}
		e.buf = v.AsBigFloat().Append(e.buf, 'f', -1)
		return true
	case ty == cty.Bool:
		if v.True() {
			e.buf = append(e.buf, "true"...)
		} else {
			e.buf = append(e.buf, "false"...)
		}
		return true
	case ty.IsListType() || ty.IsSetType():
		return e.elements(v, func(int) cty.Type { return ty.ElementType() })
	case ty.IsTupleType():
		etys := ty.TupleElementTypes()
		return e.elements(v, func(i int) cty.Type { return etys[i] })
	case ty.IsMapType():
		return e.mapVal(v, ty.ElementType())
	case ty.IsObjectType():
		return e.object(v, ty)
	}
	return false
}

func (e *encoder) elements(v cty.Value, ety func(i int) cty.Type) bool {
	e.buf = append(e.buf, '[')
	i := 0
	for it := v.ElementIterator(); it.Next(); i++ {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		_, ev := it.Element()
		if !e.value(ev, ety(i)) {
			return false
		}
	}
	e.buf = append(e.buf, ']')
	return true
}

func (e *encoder) mapVal(v cty.Value, ety cty.Type) bool {
	e.buf = append(e.buf, '{')
	first := true
	for it := v.ElementIterator(); it.Next(); {
		if !first {
			e.buf = append(e.buf, ',')
		}
		first = false
		k, ev := it.Element()
		if !e.str(k.AsString()) {
			return false
		}
		e.buf = append(e.buf, ':')
		if !e.value(ev, ety) {
			return false
		}
	}
	e.buf = append(e.buf, '}')
	return true
}

// object writes attributes in name order, as cty/json does.
func (e *encoder) object(v cty.Value, ty cty.Type) bool {
	atys := ty.AttributeTypes()
	var small [16]string
	names := small[:0]
	for k := range atys {
		names = append(names, k)
	}
	sort.Strings(names)
	e.buf = append(e.buf, '{')
	for i, k := range names {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		if !plainASCII(k) {
			// cty/json writes the name through cty.StringVal, which
			// normalizes it; only plain names are the same as written.
			return false
		}
		e.appendPlain(k)
		e.buf = append(e.buf, ':')
		if !e.value(v.GetAttr(k), atys[k]) {
			return false
		}
	}
	e.buf = append(e.buf, '}')
	return true
}

func (e *encoder) dynamic(v cty.Value) bool {
	typeJSON, err := ctyjson.MarshalType(v.Type())
	if err != nil {
		return false
	}
	e.buf = append(e.buf, `{"value":`...)
	if !e.value(v, v.Type()) {
		return false
	}
	e.buf = append(e.buf, `,"type":`...)
	e.buf = append(e.buf, typeJSON...)
	e.buf = append(e.buf, '}')
	return true
}

// str appends s quoted as encoding/json quotes it.
func (e *encoder) str(s string) bool {
	if plainASCII(s) {
		e.appendPlain(s)
		return true
	}
	q, err := json.Marshal(s)
	if err != nil {
		return false
	}
	e.buf = append(e.buf, q...)
	return true
}

func (e *encoder) appendPlain(s string) {
	e.buf = append(e.buf, '"')
	e.buf = append(e.buf, s...)
	e.buf = append(e.buf, '"')
}

// plainASCII reports whether encoding/json writes s as it is, between
// quotes: printable ASCII with nothing it escapes.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c >= 0x7f, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}
