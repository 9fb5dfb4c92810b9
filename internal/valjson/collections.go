package valjson

import (
	"strings"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

func (d *decoder) expect(c byte) error {
	if d.peek() != c {
		return errFallback
	}
	d.pos++
	return nil
}

// each calls fn for each element of a JSON array.
func (d *decoder) each(fn func() error) error {
	if err := d.expect('['); err != nil {
		return err
	}
	if d.peek() == ']' {
		d.pos++
		return nil
	}
	for {
		if err := fn(); err != nil {
			return err
		}
		switch d.peek() {
		case ',':
			d.pos++
		case ']':
			d.pos++
			return nil
		default:
			return errFallback
		}
	}
}

// members calls fn for each key of a JSON object, positioned at its value.
func (d *decoder) members(fn func(key string) error) error {
	if err := d.expect('{'); err != nil {
		return err
	}
	if d.peek() == '}' {
		d.pos++
		return nil
	}
	for {
		key, err := d.str()
		if err != nil {
			return err
		}
		if err := d.expect(':'); err != nil {
			return err
		}
		if err := fn(key); err != nil {
			return err
		}
		switch d.peek() {
		case ',':
			d.pos++
		case '}':
			d.pos++
			return nil
		default:
			return errFallback
		}
	}
}

func (d *decoder) object(ty cty.Type) (cty.Value, error) {
	atys := ty.AttributeTypes()
	vals := make(map[string]cty.Value, len(atys))
	err := d.members(func(key string) error {
		aty, ok := atys[key]
		if !ok {
			return errFallback
		}
		if _, dup := vals[key]; dup {
			return errFallback
		}
		v, err := d.value(aty)
		vals[key] = v
		return err
	})
	if err != nil {
		return cty.NilVal, err
	}
	for k, aty := range atys {
		if _, ok := vals[k]; !ok {
			vals[k] = cty.NullVal(aty)
		}
	}
	if len(vals) == 0 {
		return cty.EmptyObjectVal, nil
	}
	return cty.ObjectVal(vals), nil
}

func (d *decoder) mapVal(ety cty.Type) (cty.Value, error) {
	vals := map[string]cty.Value{}
	err := d.members(func(key string) error {
		if _, dup := vals[key]; dup {
			return errFallback
		}
		v, err := d.value(ety)
		vals[key] = v
		return err
	})
	if err != nil {
		return cty.NilVal, err
	}
	if len(vals) == 0 {
		return cty.MapValEmpty(ety), nil
	}
	return cty.MapVal(vals), nil
}

func (d *decoder) sequence(ty cty.Type) (cty.Value, error) {
	ety := ty.ElementType()
	var vals []cty.Value
	err := d.each(func() error {
		v, err := d.value(ety)
		vals = append(vals, v)
		return err
	})
	if err != nil {
		return cty.NilVal, err
	}
	if ety.HasDynamicTypes() {
		// Element types may differ and need unifying: cty/json's job.
		return cty.NilVal, errFallback
	}
	switch {
	case len(vals) == 0 && ty.IsListType():
		return cty.ListValEmpty(ety), nil
	case len(vals) == 0:
		return cty.SetValEmpty(ety), nil
	case ty.IsListType():
		return cty.ListVal(vals), nil
	}
	return cty.SetVal(vals), nil
}

func (d *decoder) tuple(etys []cty.Type) (cty.Value, error) {
	vals := make([]cty.Value, 0, len(etys))
	err := d.each(func() error {
		if len(vals) >= len(etys) {
			return errFallback
		}
		v, err := d.value(etys[len(vals)])
		vals = append(vals, v)
		return err
	})
	if err != nil || len(vals) != len(etys) {
		return cty.NilVal, errFallback
	}
	if len(vals) == 0 {
		return cty.EmptyTupleVal, nil
	}
	return cty.TupleVal(vals), nil
}

// dynamic reads {"value": ..., "type": ...}, in either order.
func (d *decoder) dynamic() (cty.Value, error) {
	var ty cty.Type
	var valueStart, valueEnd = -1, -1
	err := d.members(func(key string) error {
		switch key {
		case "type":
			t, err := d.typ()
			ty = t
			return err
		case "value":
			valueStart = d.pos
			if err := d.skipValue(); err != nil {
				return err
			}
			valueEnd = d.pos
			return nil
		}
		return errFallback
	})
	if err != nil || ty == cty.NilType || valueStart < 0 {
		return cty.NilVal, errFallback
	}
	sub := decoder{src: d.src[:valueEnd], pos: valueStart}
	v, err := sub.value(ty)
	if err != nil {
		return cty.NilVal, err
	}
	sub.skipSpace()
	if sub.pos != valueEnd {
		return cty.NilVal, errFallback
	}
	return v, nil
}

// typ reads a type in cty's JSON type syntax; primitive names directly,
// anything else through cty/json.
func (d *decoder) typ() (cty.Type, error) {
	if d.peek() == '"' {
		s, err := d.str()
		if err != nil {
			return cty.NilType, err
		}
		switch s {
		case "string":
			return cty.String, nil
		case "number":
			return cty.Number, nil
		case "bool":
			return cty.Bool, nil
		case "dynamic":
			return cty.DynamicPseudoType, nil
		}
		return cty.NilType, errFallback
	}
	start := d.pos
	if err := d.skipValue(); err != nil {
		return cty.NilType, err
	}
	return ctyjson.UnmarshalType(d.src[start:d.pos])
}

// skipValue moves past one JSON value without decoding it.
func (d *decoder) skipValue() error {
	switch c := d.peek(); {
	case c == '"':
		_, err := d.str()
		return err
	case c == '{':
		return d.members(func(string) error { return d.skipValue() })
	case c == '[':
		return d.each(d.skipValue)
	case c == 't':
		if d.literal("true") {
			return nil
		}
	case c == 'f':
		if d.literal("false") {
			return nil
		}
	case c == 'n':
		if d.literal("null") {
			return nil
		}
	default:
		_, err := d.number()
		return err
	}
	return errFallback
}

// unquote decodes a JSON string literal with escapes. \u escapes (which
// may be surrogate pairs) and anything invalid are left to cty/json.
func unquote(raw []byte) (string, error) {
	body := raw[1 : len(raw)-1]
	var b strings.Builder
	b.Grow(len(body))
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c < 0x20 {
			return "", errFallback
		}
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(body) {
			return "", errFallback
		}
		switch body[i] {
		case '"', '\\', '/':
			b.WriteByte(body[i])
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		default:
			return "", errFallback
		}
	}
	s := b.String()
	if !utf8.ValidString(s) {
		return "", errFallback
	}
	return s, nil
}
