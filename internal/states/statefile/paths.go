package statefile

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// pathStep is one step of a cty path as sensitive_attributes encodes it.
// An attribute step's value is the attribute name as a JSON string; an index
// step's value is the key in cty's typed JSON form, {"value":0,"type":"number"},
// because a key may be a number, a string, or (for set elements) any value.
type pathStep struct {
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
}

const (
	stepGetAttr = "get_attr"
	stepIndex   = "index"
)

// emptyPaths is what Terraform writes when no attribute is sensitive. It is
// shared, never modified.
var emptyPaths = json.RawMessage("[]")

// marshalPaths encodes sensitive attribute paths, compact; the file encoder
// indents it with the rest of the document.
func marshalPaths(paths []cty.Path) (json.RawMessage, error) {
	if len(paths) == 0 {
		return emptyPaths, nil
	}
	var buf bytes.Buffer
	buf.WriteByte('[')
	for i, p := range paths {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := appendPath(&buf, p); err != nil {
			return nil, fmt.Errorf("sensitive path %d: %w", i, err)
		}
	}
	buf.WriteByte(']')
	return buf.Bytes(), nil
}

func appendPath(buf *bytes.Buffer, p cty.Path) error {
	buf.WriteByte('[')
	for i, step := range p {
		if i > 0 {
			buf.WriteByte(',')
		}
		var s pathStep
		switch st := step.(type) {
		case cty.GetAttrStep:
			name, err := json.Marshal(st.Name)
			if err != nil {
				return err
			}
			s = pathStep{Type: stepGetAttr, Value: name}
		case cty.IndexStep:
			key, err := ctyjson.Marshal(st.Key, cty.DynamicPseudoType)
			if err != nil {
				return fmt.Errorf("step %d: index key: %w", i, err)
			}
			s = pathStep{Type: stepIndex, Value: key}
		default:
			return fmt.Errorf("step %d: unsupported path step %T", i, step)
		}
		b, err := json.Marshal(s)
		if err != nil {
			return fmt.Errorf("step %d: %w", i, err)
		}
		buf.Write(b)
	}
	buf.WriteByte(']')
	return nil
}

// unmarshalPaths decodes sensitive_attributes. Absent or empty means no
// sensitive paths. Index keys must be known and non-null: a null key does
// not address anything.
func unmarshalPaths(raw json.RawMessage) ([]cty.Path, error) {
	if len(raw) == 0 || bytes.Equal(raw, emptyPaths) || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	var steps [][]pathStep
	if err := json.Unmarshal(raw, &steps); err != nil {
		return nil, fmt.Errorf("must be a list of paths, each a list of {\"type\", \"value\"} steps: %w", err)
	}
	if len(steps) == 0 {
		return nil, nil
	}
	paths := make([]cty.Path, len(steps))
	for i, ss := range steps {
		p := make(cty.Path, len(ss))
		for j, s := range ss {
			step, err := decodeStep(s)
			if err != nil {
				return nil, fmt.Errorf("path %d, step %d: %w", i, j, err)
			}
			p[j] = step
		}
		paths[i] = p
	}
	return paths, nil
}

func decodeStep(s pathStep) (cty.PathStep, error) {
	switch s.Type {
	case stepGetAttr:
		var name string
		if err := json.Unmarshal(s.Value, &name); err != nil {
			return nil, fmt.Errorf("get_attr value must be a string")
		}
		return cty.GetAttrStep{Name: name}, nil
	case stepIndex:
		if len(s.Value) == 0 {
			return nil, fmt.Errorf("index step has no value")
		}
		key, err := ctyjson.Unmarshal(s.Value, cty.DynamicPseudoType)
		if err != nil {
			return nil, fmt.Errorf("index value must be {\"value\": ..., \"type\": ...}: %w", err)
		}
		if key.IsNull() {
			return nil, fmt.Errorf("index value must not be null")
		}
		return cty.IndexStep{Key: key}, nil
	default:
		return nil, fmt.Errorf("unsupported step type %q (want %q or %q)", s.Type, stepGetAttr, stepIndex)
	}
}
