package emulator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

// typeSchema is the part of a CloudFormation resource schema the emulator
// reads: where the identifiers, read-only and write-only values live, and
// the property subschemas that describe them. It is immutable once built,
// so handlers share it between goroutines without locking.
type typeSchema struct {
	typeName string
	// service and resource are the second and third parts of the type
	// name: AWS::EC2::VPC → "EC2", "VPC".
	service, resource string
	doc               map[string]any
	primary           []propPath
	readOnly          []propPath
	writeOnly         []propPath
	required          []string
}

// propPath is a property pointer from the schema (/properties/A/B/*/C)
// split into its segments after /properties: [A B * C]. "*" stands for
// every element of an array.
type propPath = cloudcontrol.PropertyPath

// parseSchema decodes a CloudFormation resource schema. Numbers stay
// json.Number so that defaults and bounds keep their exact text. It fails
// when the document is not a JSON object or has no primaryIdentifier,
// which every registry schema has and the emulator cannot work without.
func parseSchema(typeName string, raw []byte) (*typeSchema, error) {
	doc, err := decodeObject(raw)
	if err != nil {
		return nil, fmt.Errorf("decoding schema of %s: %w", typeName, err)
	}
	s := &typeSchema{typeName: typeName, doc: doc}
	parts := strings.Split(typeName, "::")
	if len(parts) == 3 {
		s.service, s.resource = parts[1], parts[2]
	} else {
		s.resource = typeName
	}
	if s.primary, err = pointerList(doc, "primaryIdentifier"); err != nil {
		return nil, fmt.Errorf("schema of %s: %w", typeName, err)
	}
	if len(s.primary) == 0 {
		return nil, fmt.Errorf("schema of %s: no primaryIdentifier", typeName)
	}
	if s.readOnly, err = pointerList(doc, "readOnlyProperties"); err != nil {
		return nil, fmt.Errorf("schema of %s: %w", typeName, err)
	}
	if s.writeOnly, err = pointerList(doc, "writeOnlyProperties"); err != nil {
		return nil, fmt.Errorf("schema of %s: %w", typeName, err)
	}
	if req, ok := doc["required"].([]any); ok {
		for _, r := range req {
			if name, ok := r.(string); ok {
				s.required = append(s.required, name)
			}
		}
	}
	return s, nil
}

// decodeObject decodes a JSON object keeping numbers as json.Number.
func decodeObject(raw []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		return nil, err
	}
	if obj == nil {
		return nil, fmt.Errorf("not a JSON object")
	}
	return obj, nil
}

// pointerList reads a list of /properties/... pointers.
func pointerList(doc map[string]any, key string) ([]propPath, error) {
	raw, ok := doc[key]
	if !ok {
		return nil, nil
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, fmt.Errorf("%s is not a list", key)
	}
	paths := make([]propPath, 0, len(list))
	for _, item := range list {
		ptr, ok := item.(string)
		if !ok {
			return nil, fmt.Errorf("%s: %v is not a /properties/ pointer", key, item)
		}
		p, err := cloudcontrol.ParsePropertyPath(ptr)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// isReadOnly reports whether the top-level property name is read-only as
// a whole.
func (s *typeSchema) isReadOnly(name string) bool {
	for _, p := range s.readOnly {
		if len(p) == 1 && p[0] == name {
			return true
		}
	}
	return false
}

// isPrimary reports whether the top-level property name is (part of) the
// primary identifier.
func (s *typeSchema) isPrimary(name string) bool {
	for _, p := range s.primary {
		if len(p) == 1 && p[0] == name {
			return true
		}
	}
	return false
}

// deref follows local $ref pointers (#/definitions/X, #/properties/X) to
// the subschema they name, at most a few hops so a cyclic reference ends.
// A node without $ref is returned as is; an unresolvable one as nil.
func (s *typeSchema) deref(node map[string]any) map[string]any {
	for range 8 {
		ref, ok := node["$ref"].(string)
		if !ok {
			return node
		}
		target := s.lookup(ref)
		if target == nil {
			return nil
		}
		node = target
	}
	return nil
}

// lookup resolves a local JSON pointer "#/a/b" within the schema.
func (s *typeSchema) lookup(ref string) map[string]any {
	ptr, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil
	}
	tokens, err := cloudcontrol.ParsePointer(ptr)
	if err != nil {
		return nil
	}
	var cur any = s.doc
	for _, seg := range tokens {
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = obj[seg]
	}
	obj, _ := cur.(map[string]any)
	return obj
}

// property returns the (dereferenced) subschema of a property path, or
// nil when the schema does not describe it.
func (s *typeSchema) property(path propPath) map[string]any {
	node := s.doc
	for _, seg := range path {
		node = s.deref(node)
		if node == nil {
			return nil
		}
		if seg == "*" {
			node, _ = node["items"].(map[string]any)
		} else {
			props, _ := node["properties"].(map[string]any)
			node, _ = props[seg].(map[string]any)
		}
		if node == nil {
			return nil
		}
	}
	return s.deref(node)
}

// schemaType returns the JSON type a subschema declares: its "type", the
// first non-null one of a type list, or "" when it declares none.
func schemaType(node map[string]any) string {
	switch t := node["type"].(type) {
	case string:
		return t
	case []any:
		for _, item := range t {
			if name, ok := item.(string); ok && name != "null" {
				return name
			}
		}
	}
	if _, ok := node["properties"]; ok {
		return "object"
	}
	return ""
}
