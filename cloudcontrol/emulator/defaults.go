package emulator

import (
	"encoding/json"
	"slices"
	"strconv"
)

// maxDefaultDepth bounds the descent into nested objects: recursive
// definitions (a rule that holds rules) must not loop.
const maxDefaultDepth = 12

// fillDefaults sets the schema's default for every absent property of
// model, and of the objects (and arrays of objects) model already holds,
// as AWS fills server-side defaults. It never creates an absent object to
// hold a nested default: AWS does not either.
func (s *typeSchema) fillDefaults(model map[string]any) {
	s.fillObjectDefaults(s.doc, model, false, 0)
}

// fillRequiredDefaults fills only the defaults of required properties,
// before validation: a property that is both required and defaulted (22
// registry schemas have one, S3's EventBridgeEnabled among them) is
// optional in practice, as awscc treats it. Other defaults wait until the
// model has passed, so that a default the schema itself would refuse
// never fails the caller's request.
func (s *typeSchema) fillRequiredDefaults(model map[string]any) {
	s.fillObjectDefaults(s.doc, model, true, 0)
}

func (s *typeSchema) fillObjectDefaults(node map[string]any, obj map[string]any, onlyRequired bool, depth int) {
	node = s.deref(node)
	if node == nil || depth > maxDefaultDepth {
		return
	}
	props, _ := node["properties"].(map[string]any)
	required, _ := node["required"].([]any)
	// Sorted so that the outcome never depends on map order.
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		ref, _ := props[name].(map[string]any)
		if ref == nil {
			continue
		}
		if _, present := obj[name]; !present {
			if def, ok := defaultOf(s, ref); ok && (!onlyRequired || slices.Contains(required, any(name))) {
				obj[name] = coerce(schemaType(s.deref(ref)), deepCopy(def))
			}
			continue
		}
		s.fillValueDefaults(ref, obj[name], onlyRequired, depth+1)
	}
}

// fillValueDefaults descends into a present value.
func (s *typeSchema) fillValueDefaults(node map[string]any, v any, onlyRequired bool, depth int) {
	node = s.deref(node)
	if node == nil {
		return
	}
	switch t := v.(type) {
	case map[string]any:
		s.fillObjectDefaults(node, t, onlyRequired, depth)
	case []any:
		items, _ := node["items"].(map[string]any)
		if items == nil {
			return
		}
		for _, item := range t {
			s.fillValueDefaults(items, item, onlyRequired, depth+1)
		}
	}
}

// defaultOf returns a property's default: the referencing node's own, or
// else the one of the definition it refers to.
func defaultOf(s *typeSchema, node map[string]any) (any, bool) {
	if def, ok := node["default"]; ok {
		return def, true
	}
	target := s.deref(node)
	if target == nil {
		return nil, false
	}
	def, ok := target["default"]
	return def, ok
}

// coerce converts a default written as the wrong JSON type (registry
// schemas have "true" for booleans, 5 for strings) to the property's
// type, as awscc reads them; a value it cannot convert is kept.
func coerce(typ string, v any) any {
	switch t := v.(type) {
	case string:
		switch typ {
		case "boolean":
			if b, err := strconv.ParseBool(t); err == nil {
				return b
			}
		case "integer", "number":
			if _, err := strconv.ParseFloat(t, 64); err == nil {
				return json.Number(t)
			}
		}
	case bool:
		if typ == "string" {
			return strconv.FormatBool(t)
		}
	case json.Number:
		if typ == "string" {
			return t.String()
		}
	}
	return v
}
