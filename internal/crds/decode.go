package crds

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// SecretKeySelector names one key of a Secret in the managed resource's
// own namespace.
type SecretKeySelector struct{ Name, Key string }

// SecretResolver returns the value of a Secret's key. Its error says why
// the value cannot be read (no such Secret, no such key).
type SecretResolver func(SecretKeySelector) ([]byte, error)

// DecodeParameters turns spec.forProvider (camelCase JSON as
// unstructured.Unstructured holds it; numbers as float64 or int64) into a
// configuration value of b's implied type: absent fields and computed-only
// attributes null, sensitive attributes read through resolve from their
// "<field>SecretRef" (a string as it is, any other type as JSON). The
// error, for the object's author, names the field path and what is wrong:
// "spec.forProvider.rules[0].port: want a number". A nil params is an
// empty object; resolve may be nil when no SecretRef is set.
func DecodeParameters(b *configschema.Block, params map[string]any, resolve SecretResolver) (cty.Value, error) {
	obj, err := blockShape(b)
	if err != nil {
		return cty.NilVal, err
	}
	d := decoder{view: paramsView, resolve: resolve}
	return d.object("spec.forProvider", obj, params, true)
}

// DecodeObservation rebuilds a state value of b's implied type from
// status.atProvider, as EncodeObservation wrote it: sensitive attributes
// (at any depth) null, as are absent fields. The error names the field
// path of a value of the wrong type or an unknown field.
func DecodeObservation(b *configschema.Block, atProvider map[string]any) (cty.Value, error) {
	obj, err := blockShape(b)
	if err != nil {
		return cty.NilVal, err
	}
	d := decoder{view: observationView}
	return d.object("status.atProvider", obj, atProvider, true)
}

// decoder decodes JSON values by shape, for one view of the schema.
type decoder struct {
	view    view
	resolve SecretResolver
}

// fieldError is a decoding error at a field path of the object.
type fieldError struct {
	path, msg string
}

func (e *fieldError) Error() string { return e.path + ": " + e.msg }

func (d decoder) object(path string, s *shape, raw map[string]any, top bool) (cty.Value, error) {
	vals := make(map[string]cty.Value, len(s.members))
	known := make(map[string]bool, len(s.members))
	for _, m := range s.members {
		vals[m.name] = cty.NullVal(m.shape.ty)
		if !d.view.shows(m) {
			continue
		}
		var err error
		if top && m.sensitive && d.view == paramsView {
			known[m.field+secretRefSuffix] = true
			vals[m.name], err = d.secret(path, m, raw)
		} else if fv, ok := raw[m.field]; ok && fv != nil {
			vals[m.name], err = d.value(path+"."+m.field, m.shape, fv)
		} else if m.group {
			vals[m.name], err = d.object(path+"."+m.field, m.shape, nil, false)
		}
		if err != nil {
			return cty.NilVal, err
		}
		known[m.field] = true
	}
	if err := unknownField(path, raw, known); err != nil {
		return cty.NilVal, err
	}
	return cty.ObjectVal(vals), nil
}

// unknownField reports the first field of raw (in sorted order, so the
// error is stable) that the shape does not have.
func unknownField(path string, raw map[string]any, known map[string]bool) error {
	var extra []string
	for k := range raw {
		if !known[k] {
			extra = append(extra, k)
		}
	}
	if len(extra) == 0 {
		return nil
	}
	sort.Strings(extra)
	return &fieldError{path: path + "." + extra[0], msg: "unknown field"}
}

// secret reads a sensitive attribute through its SecretRef; the plain
// field is refused so that a secret is never written in an object.
func (d decoder) secret(path string, m *member, raw map[string]any) (cty.Value, error) {
	null := cty.NullVal(m.shape.ty)
	if fv, ok := raw[m.field]; ok && fv != nil {
		return null, &fieldError{path: path + "." + m.field, msg: "sensitive: set " + m.field + secretRefSuffix + " to a Secret key instead"}
	}
	refPath := path + "." + m.field + secretRefSuffix
	rv, ok := raw[m.field+secretRefSuffix]
	if !ok || rv == nil {
		return null, nil
	}
	sel, err := secretKeySelector(refPath, rv)
	if err != nil {
		return null, err
	}
	if d.resolve == nil {
		return null, &fieldError{path: refPath, msg: "no Secrets can be read here"}
	}
	data, err := d.resolve(sel)
	if err != nil {
		return null, &fieldError{path: refPath, msg: err.Error()}
	}
	if m.shape.ty == cty.String {
		return cty.StringVal(string(data)), nil
	}
	v, err := ctyjson.Unmarshal(data, m.shape.ty)
	if err != nil {
		// The decoder's message can quote the secret; it is left out.
		return null, &fieldError{path: refPath, msg: fmt.Sprintf("Secret %s key %s: want JSON of %s", sel.Name, sel.Key, m.shape.ty.FriendlyName())}
	}
	return v, nil
}

func secretKeySelector(path string, raw any) (SecretKeySelector, error) {
	obj, ok := raw.(map[string]any)
	if !ok {
		return SecretKeySelector{}, &fieldError{path: path, msg: "want an object with name and key"}
	}
	var sel SecretKeySelector
	for _, f := range []struct {
		name string
		dst  *string
	}{{"name", &sel.Name}, {"key", &sel.Key}} {
		s, ok := obj[f.name].(string)
		if !ok || s == "" {
			return sel, &fieldError{path: path + "." + f.name, msg: "want a non-empty string"}
		}
		*f.dst = s
	}
	return sel, unknownField(path, obj, map[string]bool{"name": true, "key": true})
}

// value decodes one JSON value of shape s.
func (d decoder) value(path string, s *shape, raw any) (cty.Value, error) {
	switch s.kind {
	case shapeDynamic:
		return dynamicValue(path, raw)
	case shapePrimitive:
		return primitiveValue(path, s.ty, raw)
	case shapeList, shapeSet:
		return d.sequence(path, s, raw)
	case shapeMap:
		return d.mapping(path, s, raw)
	}
	obj, ok := raw.(map[string]any)
	if !ok {
		return cty.NilVal, &fieldError{path: path, msg: "want an object"}
	}
	return d.object(path, s, obj, false)
}

func (d decoder) sequence(path string, s *shape, raw any) (cty.Value, error) {
	items, ok := raw.([]any)
	if !ok {
		return cty.NilVal, &fieldError{path: path, msg: "want an array"}
	}
	elems := make([]cty.Value, len(items))
	for i, it := range items {
		ep := path + "[" + strconv.Itoa(i) + "]"
		v, err := d.element(ep, s.elem, it)
		if err != nil {
			return cty.NilVal, err
		}
		if i > 0 && !v.Type().Equals(elems[0].Type()) {
			return cty.NilVal, &fieldError{path: ep, msg: "want a value of the same type as the first element"}
		}
		elems[i] = v
	}
	if s.kind == shapeSet {
		if len(elems) == 0 {
			return cty.SetValEmpty(s.elem.ty), nil
		}
		return cty.SetVal(elems), nil
	}
	if len(elems) == 0 {
		return cty.ListValEmpty(s.elem.ty), nil
	}
	return cty.ListVal(elems), nil
}

func (d decoder) mapping(path string, s *shape, raw any) (cty.Value, error) {
	obj, ok := raw.(map[string]any)
	if !ok {
		return cty.NilVal, &fieldError{path: path, msg: "want an object"}
	}
	if len(obj) == 0 {
		return cty.MapValEmpty(s.elem.ty), nil
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	elems := make(map[string]cty.Value, len(obj))
	var first cty.Type
	for i, k := range keys {
		ep := path + "[" + strconv.Quote(k) + "]"
		v, err := d.element(ep, s.elem, obj[k])
		if err != nil {
			return cty.NilVal, err
		}
		if i == 0 {
			first = v.Type()
		} else if !v.Type().Equals(first) {
			return cty.NilVal, &fieldError{path: ep, msg: "want a value of the same type as the other entries"}
		}
		elems[k] = v
	}
	return cty.MapVal(elems), nil
}

// element decodes a collection element, where JSON null is a null value.
func (d decoder) element(path string, s *shape, raw any) (cty.Value, error) {
	if raw == nil {
		return cty.NullVal(s.ty), nil
	}
	return d.value(path, s, raw)
}

func primitiveValue(path string, ty cty.Type, raw any) (cty.Value, error) {
	switch ty {
	case cty.String:
		if s, ok := raw.(string); ok {
			return cty.StringVal(s), nil
		}
		return cty.NilVal, &fieldError{path: path, msg: "want a string"}
	case cty.Bool:
		if b, ok := raw.(bool); ok {
			return cty.BoolVal(b), nil
		}
		return cty.NilVal, &fieldError{path: path, msg: "want a boolean"}
	}
	switch n := raw.(type) {
	case int64:
		return cty.NumberIntVal(n), nil
	case int:
		return cty.NumberIntVal(int64(n)), nil
	case int32:
		return cty.NumberIntVal(int64(n)), nil
	case float64:
		// cty has no NaN, and JSON no infinities.
		if !math.IsNaN(n) && !math.IsInf(n, 0) {
			return cty.NumberFloatVal(n), nil
		}
	case json.Number:
		if v, err := cty.ParseNumberVal(n.String()); err == nil {
			return v, nil
		}
	}
	return cty.NilVal, &fieldError{path: path, msg: "want a number"}
}

// dynamicValue decodes a value of any type (cty.DynamicPseudoType) by the
// type its JSON implies.
func dynamicValue(path string, raw any) (cty.Value, error) {
	data, err := json.Marshal(raw)
	if err != nil {
		return cty.NilVal, &fieldError{path: path, msg: "not JSON: " + err.Error()}
	}
	ty, err := ctyjson.ImpliedType(data)
	if err != nil {
		return cty.NilVal, &fieldError{path: path, msg: err.Error()}
	}
	v, err := ctyjson.Unmarshal(data, ty)
	if err != nil {
		return cty.NilVal, &fieldError{path: path, msg: err.Error()}
	}
	return v, nil
}
