package emulator

import "slices"

// maxDefaultDepth bounds the descent into nested objects: recursive
// definitions (a rule that holds rules) must not loop.
const maxDefaultDepth = 12

// fillDefaults sets the schema's default for every absent property of
// model, and of the objects (and arrays of objects) model already holds,
// as AWS fills server-side defaults. It never creates an absent object to
// hold a nested default: AWS does not either.
func (s *typeSchema) fillDefaults(model map[string]any) {
	s.fillObjectDefaults(s.doc, model, 0)
}

func (s *typeSchema) fillObjectDefaults(node map[string]any, obj map[string]any, depth int) {
	node = s.deref(node)
	if node == nil || depth > maxDefaultDepth {
		return
	}
	props, _ := node["properties"].(map[string]any)
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
			if def, ok := defaultOf(s, ref); ok {
				obj[name] = deepCopy(def)
			}
			continue
		}
		s.fillValueDefaults(ref, obj[name], depth+1)
	}
}

// fillValueDefaults descends into a present value.
func (s *typeSchema) fillValueDefaults(node map[string]any, v any, depth int) {
	node = s.deref(node)
	if node == nil {
		return
	}
	switch t := v.(type) {
	case map[string]any:
		s.fillObjectDefaults(node, t, depth)
	case []any:
		items, _ := node["items"].(map[string]any)
		if items == nil {
			return
		}
		for _, item := range t {
			s.fillValueDefaults(items, item, depth+1)
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
