package emulator

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/cairn-iac/cairn/cloudcontrol"
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
// type, as awscc reads them; a value it cannot convert is kept. Text for
// a string property is cloudcontrol.ScalarText's, as everywhere else.
func coerce(typ string, v any) any {
	s, isString := v.(string)
	switch {
	case typ == "string":
		if text, ok := cloudcontrol.ScalarText(v); ok {
			return text
		}
	case typ == "boolean" && isString:
		if b, err := strconv.ParseBool(s); err == nil {
			return b
		}
	case (typ == "integer" || typ == "number") && isString:
		// json.Valid as well: ParseFloat also takes "NaN", "Inf" and hex,
		// which no JSON number can hold.
		if _, err := strconv.ParseFloat(s, 64); err == nil && json.Valid([]byte(s)) {
			return json.Number(s)
		}
	}
	return v
}
