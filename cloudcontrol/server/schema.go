package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

// typeInfo is a resource type with the parts of its schema the server
// acts on, parsed once on first use.
type typeInfo struct {
	*cloudcontrol.ResourceType
	primaryID  []path
	createOnly []path
	writeOnly  []path
	readOnly   []path
}

// path is a schema property pointer split into segments, without the
// leading "properties": /properties/A/*/B is [A * B]; "*" steps through
// every element of an array.
type path = cloudcontrol.PropertyPath

func parseTypeInfo(rt *cloudcontrol.ResourceType) (*typeInfo, error) {
	var doc struct {
		PrimaryIdentifier    []string `json:"primaryIdentifier"`
		CreateOnlyProperties []string `json:"createOnlyProperties"`
		WriteOnlyProperties  []string `json:"writeOnlyProperties"`
		ReadOnlyProperties   []string `json:"readOnlyProperties"`
	}
	if err := json.Unmarshal(rt.Schema, &doc); err != nil {
		return nil, fmt.Errorf("reading schema of %s: %w", rt.Name, err)
	}
	ti := &typeInfo{ResourceType: rt}
	var err error
	if ti.primaryID, err = cloudcontrol.ParsePropertyPaths(doc.PrimaryIdentifier); err != nil {
		return nil, fmt.Errorf("schema of %s: primaryIdentifier: %w", rt.Name, err)
	}
	if len(ti.primaryID) == 0 {
		return nil, fmt.Errorf("schema of %s has no primaryIdentifier", rt.Name)
	}
	if ti.createOnly, err = cloudcontrol.ParsePropertyPaths(doc.CreateOnlyProperties); err != nil {
		return nil, fmt.Errorf("schema of %s: createOnlyProperties: %w", rt.Name, err)
	}
	if ti.writeOnly, err = cloudcontrol.ParsePropertyPaths(doc.WriteOnlyProperties); err != nil {
		return nil, fmt.Errorf("schema of %s: writeOnlyProperties: %w", rt.Name, err)
	}
	if ti.readOnly, err = cloudcontrol.ParsePropertyPaths(doc.ReadOnlyProperties); err != nil {
		return nil, fmt.Errorf("schema of %s: readOnlyProperties: %w", rt.Name, err)
	}
	return ti, nil
}

// identifier returns the model's primary identifier: the values at the
// primaryIdentifier pointers joined with "|", as Cloud Control does. It
// fails when a part is missing, which is a handler bug.
func (ti *typeInfo) identifier(model map[string]any) (string, error) {
	parts := make([]string, 0, len(ti.primaryID))
	for _, p := range ti.primaryID {
		v, ok := lookup(model, p)
		if !ok || v == nil {
			return "", fmt.Errorf("model of %s has no primary identifier property %s", ti.Name, p)
		}
		part, ok := cloudcontrol.ScalarText(v)
		if !ok {
			return "", fmt.Errorf("primary identifier property %s of %s is not a string, number or boolean", p, ti.Name)
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, "|"), nil
}

func lookup(model map[string]any, p path) (any, bool) {
	var cur any = model
	for _, seg := range p {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[seg]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// public returns a deep copy of model without its writeOnlyProperties,
// the only form in which a model leaves the server.
func (ti *typeInfo) public(model map[string]any) map[string]any {
	out, _ := deepCopy(model).(map[string]any)
	for _, p := range ti.writeOnly {
		strip(out, p)
	}
	return out
}

// strip removes what p points at from v, stepping through arrays at "*",
// and reports whether it removed anything. An object left empty by the
// removal goes too, as AWS answers leave out an object all of whose
// properties are write-only (a Lambda function's Code): clients must
// carry such values over from what they sent.
func strip(v any, p path) bool {
	switch v := v.(type) {
	case map[string]any:
		if len(p) == 1 {
			_, had := v[p[0]]
			delete(v, p[0])
			return had
		}
		if p[0] == "*" {
			removed := false
			for k, e := range v {
				if strip(e, p[1:]) {
					removed = true
					dropIfEmpty(v, k)
				}
			}
			return removed
		}
		if !strip(v[p[0]], p[1:]) {
			return false
		}
		dropIfEmpty(v, p[0])
		return true
	case []any:
		if p[0] != "*" || len(p) == 1 {
			return false
		}
		removed := false
		for _, e := range v {
			if strip(e, p[1:]) {
				removed = true
			}
		}
		return removed
	}
	return false
}

// dropIfEmpty removes m[k] when it is an empty object.
func dropIfEmpty(m map[string]any, k string) {
	if o, ok := m[k].(map[string]any); ok && len(o) == 0 {
		delete(m, k)
	}
}

// collect returns the values p points at, in document order, with "*"
// expanded; missing values are skipped.
func collect(v any, p path) []any {
	if len(p) == 0 {
		return []any{v}
	}
	switch v := v.(type) {
	case map[string]any:
		if e, ok := v[p[0]]; ok {
			return collect(e, p[1:])
		}
	case []any:
		if p[0] == "*" {
			var out []any
			for _, e := range v {
				out = append(out, collect(e, p[1:])...)
			}
			return out
		}
	}
	return nil
}

// changedCreateOnly returns the first createOnly property whose value
// differs between previous and desired, "" when none does.
func (ti *typeInfo) changedCreateOnly(previous, desired map[string]any) string {
	for _, p := range ti.createOnly {
		if !sameJSON(collect(previous, p), collect(desired, p)) {
			return p.String()
		}
	}
	return ""
}

// setReadOnly returns the readOnlyProperties desired gives a value, in
// schema order: a caller may not choose them.
func (ti *typeInfo) setReadOnly(desired map[string]any) []string {
	var set []string
	for _, p := range ti.readOnly {
		if len(collect(desired, p)) > 0 {
			set = append(set, p.String())
		}
	}
	return set
}

func sameJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = deepCopy(e)
		}
		return out
	default:
		return v
	}
}

// decodeModel decodes a JSON object with numbers kept as json.Number, as
// the handler contract promises.
func decodeModel(s string) (map[string]any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	if m == nil {
		return nil, fmt.Errorf("model is null, not a JSON object")
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data after the JSON object")
	}
	return m, nil
}

func encodeModel(m map[string]any) string {
	b, err := json.Marshal(m)
	if err != nil {
		// Models come from JSON decoding or handlers' maps of JSON values.
		return "{}"
	}
	return string(b)
}
