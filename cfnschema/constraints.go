package cfnschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

func (w *walker) stringConstraints(n *node, loc string, c *Constraints, why *[]string) {
	c.MinLength, c.MaxLength = w.countRange(n.MinLength, n.MaxLength, loc, "minLength", "maxLength")
	// An empty pattern matches everything; the sanitised AWS schemas use it
	// for patterns Go could not compile when they were downloaded.
	if n.Pattern != nil && *n.Pattern != "" {
		c.Pattern = w.pattern(*n.Pattern, loc+"/pattern", why)
	}
	c.Enum = w.enum(n.Enum, loc+"/enum")
}

func (w *walker) numberConstraints(n *node, loc string, c *Constraints) {
	if n.Minimum != nil {
		c.Minimum = w.number(*n.Minimum, loc+"/minimum")
	}
	if n.Maximum != nil {
		c.Maximum = w.number(*n.Maximum, loc+"/maximum")
	}
	if c.Minimum != "" && c.Maximum != "" {
		lo, _ := strconv.ParseFloat(string(c.Minimum), 64)
		hi, _ := strconv.ParseFloat(string(c.Maximum), 64)
		if lo > hi {
			w.contradiction(loc, "minimum", "maximum")
			c.Minimum, c.Maximum = "", ""
		}
	}
	c.Enum = w.enum(n.Enum, loc+"/enum")
}

func (w *walker) collectionConstraints(n *node, loc string, c *Constraints) {
	c.MinItems, c.MaxItems = w.countRange(n.MinItems, n.MaxItems, loc, "minItems", "maxItems")
}

// countRange reads a pair of count keywords. A pair that contradicts itself
// (minimum above maximum) would make the framework reject every value, so
// both are dropped with a warning.
func (w *walker) countRange(lo, hi *json.Number, loc, loKey, hiKey string) (*int64, *int64) {
	l := w.count(lo, loc+"/"+loKey)
	h := w.count(hi, loc+"/"+hiKey)
	if l != nil && h != nil && *l > *h {
		w.contradiction(loc, loKey, hiKey)
		return nil, nil
	}
	return l, h
}

func (w *walker) contradiction(loc, loKey, hiKey string) {
	w.warnf(loc+"/"+loKey, "Contradictory bounds", "%s is greater than %s; neither is validated", loKey, hiKey)
}

// number checks a numeric keyword; a bound that is not a finite number is
// ignored with a warning.
func (w *walker) number(v json.Number, loc string) json.Number {
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		w.warnf(loc, "Invalid number", "%q is not a finite number; the bound is ignored", string(v))
		return ""
	}
	return v
}

// count reads a non-negative integer keyword (minLength, maxItems, ...). A
// value that is not one is ignored with a warning: the schema still loads,
// without that validator.
func (w *walker) count(v *json.Number, loc string) *int64 {
	if v == nil {
		return nil
	}
	i, err := strconv.ParseInt(string(*v), 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(string(*v), 64)
		if ferr != nil || f != math.Trunc(f) || f < 0 || f > math.MaxInt64 {
			w.warnf(loc, "Invalid count", "%q is not a non-negative integer; the validator is omitted", string(*v))
			return nil
		}
		i = int64(f)
	}
	if i < 0 {
		w.warnf(loc, "Invalid count", "%d is negative; the validator is omitted", i)
		return nil
	}
	return &i
}

// pattern compiles a pattern, RE2 first and ECMA-262 when RE2 rejects it. A
// pattern neither engine accepts is reported and dropped: the type still
// loads, and Cloud Control validates the value on apply.
func (w *walker) pattern(src, loc string, why *[]string) *Pattern {
	p, err := w.patterns.compile(src)
	if err != nil {
		w.diag(Warning, loc, "Uncompilable pattern",
			fmt.Sprintf("%q is not a valid regular expression (%v); it is not validated", src, err))
		*why = append(*why, fmt.Sprintf("pattern %q dropped: no engine compiles it", src))
		return nil
	}
	if p.ecma != nil {
		*why = append(*why, fmt.Sprintf("pattern %q is validated with the ECMA-262 engine: RE2 rejects it", src))
	}
	return p
}

// enum decodes enum values; numbers stay json.Number so that integer
// values keep their exact text.
func (w *walker) enum(raw []json.RawMessage, loc string) []any {
	if len(raw) == 0 {
		return nil
	}
	out := make([]any, 0, len(raw))
	for i, r := range raw {
		v, err := decodeJSONValue(r)
		if err != nil {
			w.warnf(fmt.Sprintf("%s/%d", loc, i), "Invalid enum value", "%v", err)
			continue
		}
		if v != nil {
			out = append(out, v)
		}
	}
	return out
}

// decodeJSONValue decodes one JSON value with numbers as json.Number. The
// scalars that make up nearly all enum values and defaults are decoded
// without a json.Decoder, whose buffer would dominate the allocations of a
// whole load.
func decodeJSONValue(raw json.RawMessage) (any, error) {
	r := bytes.TrimSpace(raw)
	if len(r) > 0 {
		switch c := r[0]; {
		case c == '"':
			var s string
			err := json.Unmarshal(r, &s)
			return s, err
		case c == '-' || (c >= '0' && c <= '9'):
			if json.Valid(r) {
				return json.Number(r), nil
			}
		case bytes.Equal(r, []byte("true")):
			return true, nil
		case bytes.Equal(r, []byte("false")):
			return false, nil
		case bytes.Equal(r, []byte("null")):
			return nil, nil
		}
	}
	dec := json.NewDecoder(bytes.NewReader(r))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}
