package plans

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
)

type ctyValue = cty.Value

// valueV1 is a value in a plan file: its type, its msgpack encoding (which
// keeps unknown values), and the paths that carried the sensitive mark.
type valueV1 struct {
	Type      json.RawMessage `json:"type"`
	Msgpack   []byte          `json:"msgpack"`
	Sensitive []pathV1        `json:"sensitive,omitempty"`
}

// pathV1 is a cty path: attribute names as strings, index keys as their
// type and JSON value.
type pathV1 []stepV1

type stepV1 struct {
	Attr    string          `json:"attr,omitempty"`
	KeyType json.RawMessage `json:"key_type,omitempty"`
	Key     json.RawMessage `json:"key,omitempty"`
}

func encodeValue(v cty.Value) (valueV1, error) {
	if v == cty.NilVal {
		v = cty.NullVal(cty.DynamicPseudoType)
	}
	u, pvm := marks.Unmark(v)
	var ev valueV1
	for _, pm := range pvm {
		for m := range pm.Marks {
			if m != configschema.SensitiveMark {
				return ev, fmt.Errorf("value has unsupported mark %#v", m)
			}
		}
		p, err := encodePath(pm.Path)
		if err != nil {
			return ev, err
		}
		ev.Sensitive = append(ev.Sensitive, p)
	}
	ty, err := ctyjson.MarshalType(u.Type())
	if err != nil {
		return ev, err
	}
	// Encoding as DynamicPseudoType records the concrete type inside the
	// msgpack too, so values of dynamic attributes round-trip exactly.
	mp, err := ctymsgpack.Marshal(u, cty.DynamicPseudoType)
	if err != nil {
		return ev, err
	}
	ev.Type, ev.Msgpack = ty, mp
	return ev, nil
}

func (ev valueV1) decode(dc *decodeCache) (cty.Value, error) {
	ty, err := dc.parseType(ev.Type)
	if err != nil {
		return cty.NilVal, fmt.Errorf("invalid type: %w", err)
	}
	if err := checkMsgpack(ev.Msgpack); err != nil {
		return cty.NilVal, fmt.Errorf("invalid value: %w", err)
	}
	v, err := dc.unmarshalDynamic(ev.Msgpack)
	if err != nil {
		return cty.NilVal, fmt.Errorf("invalid value: %w", err)
	}
	if !v.Type().Equals(ty) && !(v.IsNull() && ty == cty.DynamicPseudoType) {
		return cty.NilVal, fmt.Errorf("value of type %s recorded as %s", v.Type().FriendlyName(), ty.FriendlyName())
	}
	if len(ev.Sensitive) == 0 {
		return v, nil
	}
	pvm := make([]cty.PathValueMarks, 0, len(ev.Sensitive))
	for _, ep := range ev.Sensitive {
		p, err := ep.decode(dc)
		if err != nil {
			return cty.NilVal, err
		}
		pvm = append(pvm, cty.PathValueMarks{Path: p, Marks: cty.NewValueMarks(configschema.SensitiveMark)})
	}
	return v.MarkWithPaths(pvm), nil
}

// unmarshalDynamic decodes b as ctymsgpack.Unmarshal(b, cty.DynamicPseudoType)
// does, taking the type inside the wrapper from the cache: go-cty reads
// the wrapper's type, then the rest of b with that type, as this does.
// Anything but the wrapper as go-cty writes it (null, unknown, a wrapper
// go-cty reads but does not write, a corrupt one) goes to go-cty whole,
// so the result or the error is go-cty's.
func (dc *decodeCache) unmarshalDynamic(b []byte) (cty.Value, error) {
	typeJSON, rest, ok := peelDynamic(b)
	if !ok {
		return ctymsgpack.Unmarshal(b, cty.DynamicPseudoType)
	}
	ty, err := dc.parseType(typeJSON)
	if err != nil {
		return cty.DynamicVal, err
	}
	return ctymsgpack.Unmarshal(rest, ty)
}

// peelDynamic splits the wrapper ctymsgpack.Marshal(v, DynamicPseudoType)
// writes for a value of a known type, [type JSON, value]: a fixarray of
// two, then the type JSON as msgpack bin 8, 16 or 32. ok is false for
// anything else, or if the bin's length runs past b.
func peelDynamic(b []byte) (typeJSON, rest []byte, ok bool) {
	if len(b) < 3 || b[0] != 0x92 {
		return nil, nil, false
	}
	var n, head uint64
	switch b[1] {
	case 0xc4:
		n, head = uint64(b[2]), 3
	case 0xc5:
		if len(b) < 4 {
			return nil, nil, false
		}
		n, head = uint64(binary.BigEndian.Uint16(b[2:])), 4
	case 0xc6:
		if len(b) < 6 {
			return nil, nil, false
		}
		n, head = uint64(binary.BigEndian.Uint32(b[2:])), 6
	default:
		return nil, nil, false
	}
	if uint64(len(b))-head < n {
		return nil, nil, false
	}
	return b[head : head+n], b[head+n:], true
}

// checkMsgpack verifies that b is exactly one well-formed msgpack value
// whose declared lengths are all backed by data. cty's decoder allocates
// as many elements as a length prefix claims, so a corrupt file claiming
// two billion elements would exhaust memory before failing; skipping the
// structure first fails fast instead.
func checkMsgpack(b []byte) error {
	r := bytes.NewReader(b)
	dec := msgpack.NewDecoder(r)
	if err := dec.Skip(); err != nil {
		return err
	}
	if r.Len() != 0 {
		return fmt.Errorf("%d unexpected bytes after the value", r.Len())
	}
	return nil
}

func encodePath(p cty.Path) (pathV1, error) {
	out := make(pathV1, 0, len(p))
	for _, step := range p {
		switch s := step.(type) {
		case cty.GetAttrStep:
			out = append(out, stepV1{Attr: s.Name})
		case cty.IndexStep:
			kt, err := ctyjson.MarshalType(s.Key.Type())
			if err != nil {
				return nil, err
			}
			kv, err := ctyjson.Marshal(s.Key, s.Key.Type())
			if err != nil {
				return nil, fmt.Errorf("path key: %w", err)
			}
			out = append(out, stepV1{KeyType: kt, Key: kv})
		}
	}
	return out, nil
}

func (ep pathV1) decode(dc *decodeCache) (cty.Path, error) {
	out := make(cty.Path, 0, len(ep))
	for _, s := range ep {
		if s.Attr != "" {
			out = append(out, cty.GetAttrStep{Name: s.Attr})
			continue
		}
		kv, err := dc.pathKey(s.KeyType, s.Key)
		if err != nil {
			return nil, err
		}
		out = append(out, cty.IndexStep{Key: kv})
	}
	return out, nil
}
