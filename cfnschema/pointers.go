package cfnschema

import (
	"slices"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

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

// plainPointer drops the "*" (any element) tokens of a pointer and writes
// it back escaped, the form parent.plain is built in. A pointer that does
// not parse is returned as it is: it matches no property, and
// checkPointers reports it.
func plainPointer(p string) string {
	tokens, err := cloudcontrol.ParsePointer(p)
	if err != nil {
		return p
	}
	return slices.DeleteFunc(tokens, func(t string) bool { return t == "*" }).String()
}
