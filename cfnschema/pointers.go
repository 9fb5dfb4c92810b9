package cfnschema

import "strings"

// pointerSet holds the readOnlyProperties, createOnlyProperties or
// writeOnlyProperties of a schema, normalised for matching.
//
// awscc compares a pointer with the property's path of names, ignoring array
// and map levels, so /properties/Rules/Arn matches Arn inside the array
// Rules, while the explicit /properties/Rules/*/Arn never matches anything.
// Matching both forms keeps awscc's behaviour for the first and honours the
// second: both are normalised by dropping their "*" segments.
type pointerSet map[string]bool

func newPointerSet(pointers []string) pointerSet {
	s := make(pointerSet, len(pointers))
	for _, p := range pointers {
		s[plainPointer(p)] = true
	}
	return s
}

// plainPointer drops the "*" (any element) segments of a pointer.
func plainPointer(p string) string {
	if !strings.Contains(p, "*") {
		return p
	}
	parts := strings.Split(p, "/")
	out := parts[:0]
	for _, s := range parts {
		if s != "*" {
			out = append(out, s)
		}
	}
	return strings.Join(out, "/")
}
