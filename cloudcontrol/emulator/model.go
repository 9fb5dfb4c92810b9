package emulator

import (
	"fmt"
	"strings"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

// deepCopy copies a decoded JSON value so that the handler never writes
// into a map the endpoint still holds.
func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, item := range t {
			out[k] = deepCopy(item)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, item := range t {
			out[i] = deepCopy(item)
		}
		return out
	default:
		return v
	}
}

// copyModel deep-copies a model; nil becomes an empty model.
func copyModel(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return deepCopy(m).(map[string]any)
}

// getPath returns the value at a path without "*" segments.
func getPath(model map[string]any, path propPath) (any, bool) {
	var cur any = model
	for _, seg := range path {
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = obj[seg]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// visitParents calls fn with every object that holds the last segment of
// path, expanding "*" over array elements. Objects along the way are not
// created: a nested path only matters where its parent exists.
func visitParents(v any, path propPath, fn func(parent map[string]any, key string)) {
	if len(path) == 0 {
		return
	}
	if path[0] == "*" {
		arr, _ := v.([]any)
		for _, item := range arr {
			visitParents(item, path[1:], fn)
		}
		return
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return
	}
	if len(path) == 1 {
		fn(obj, path[0])
		return
	}
	visitParents(obj[path[0]], path[1:], fn)
}

// removePaths deletes every value at the given paths from model.
func removePaths(model map[string]any, paths []propPath) {
	for _, p := range paths {
		visitParents(model, p, func(parent map[string]any, key string) { delete(parent, key) })
	}
}

// carryPaths copies the values at the given paths from src into dst where
// dst has the parent object and lacks the value.
func carryPaths(dst, src map[string]any, paths []propPath) {
	for _, p := range paths {
		if v, ok := getPath(src, p); ok {
			visitParents(dst, p, func(parent map[string]any, key string) {
				if _, present := parent[key]; !present {
					parent[key] = deepCopy(v)
				}
			})
		}
	}
}

// identifierOf joins the primary identifier values of model with "|", in
// primaryIdentifier order, as Cloud Control does. It fails when a part is
// missing or empty.
func (s *typeSchema) identifierOf(model map[string]any) (string, error) {
	parts := make([]string, 0, len(s.primary))
	for _, p := range s.primary {
		v, ok := getPath(model, p)
		if !ok || v == nil {
			return "", fmt.Errorf("primary identifier %s has no value", p)
		}
		part, ok := cloudcontrol.ScalarText(v)
		switch {
		case !ok:
			return "", fmt.Errorf("primary identifier %s is not a string, number or boolean", p)
		case part == "":
			return "", fmt.Errorf("primary identifier %s is empty", p)
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, "|"), nil
}

// answer is the model as the handler returns it: a copy without
// write-only values.
func (s *typeSchema) answer(model map[string]any) map[string]any {
	out := copyModel(model)
	removePaths(out, s.writeOnly)
	return out
}
