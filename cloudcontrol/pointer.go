package cloudcontrol

import (
	"fmt"
	"strings"
)

// Pointer is a JSON pointer (RFC 6901) split into its reference tokens,
// unescaped: /properties/a~1b/*/C is [properties a/b * C]. CloudFormation
// resource schemas write pointers this way in primaryIdentifier,
// readOnlyProperties, createOnlyProperties, writeOnlyProperties, $ref
// ("#" followed by a pointer) and relationshipRef, with one addition of
// their own: the token "*" stands for every element of an array. Pointer
// keeps "*" as an ordinary token; the code that walks a model decides what
// it means.
//
// This is the one pointer parser of the endpoint, the emulator and
// cfnschema, so that a property whose name holds "/" or "~" means the
// same thing to all of them.
type Pointer []string

// ParsePointer parses an RFC 6901 pointer. The empty string is the whole
// document (no tokens); any other pointer starts with "/". Within a
// token, "~1" stands for "/" and "~0" for "~"; a "~" followed by anything
// else is an error, as RFC 6901 requires. Empty tokens are kept: "/a//b"
// names the member "" of a.
func ParsePointer(s string) (Pointer, error) {
	if s == "" {
		return Pointer{}, nil
	}
	if s[0] != '/' {
		return nil, fmt.Errorf("JSON pointer %q does not start with /", s)
	}
	tokens := strings.Split(s[1:], "/")
	for i, tok := range tokens {
		t, err := unescapeToken(tok)
		if err != nil {
			return nil, fmt.Errorf("JSON pointer %q: %w", s, err)
		}
		tokens[i] = t
	}
	return Pointer(tokens), nil
}

// unescapeToken undoes RFC 6901 escaping in one token.
func unescapeToken(tok string) (string, error) {
	if !strings.Contains(tok, "~") {
		return tok, nil
	}
	var b strings.Builder
	for i := 0; i < len(tok); i++ {
		if tok[i] != '~' {
			b.WriteByte(tok[i])
			continue
		}
		if i+1 == len(tok) || (tok[i+1] != '0' && tok[i+1] != '1') {
			return "", fmt.Errorf("%q is not an escape: only ~0 and ~1 are", tok[i:min(i+2, len(tok))])
		}
		if tok[i+1] == '0' {
			b.WriteByte('~')
		} else {
			b.WriteByte('/')
		}
		i++
	}
	return b.String(), nil
}

// EscapeToken escapes one reference token for a pointer: "~" becomes
// "~0" and "/" becomes "~1".
func EscapeToken(tok string) string {
	if !strings.ContainsAny(tok, "~/") {
		return tok
	}
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}

// String formats p as an RFC 6901 pointer, the inverse of ParsePointer.
func (p Pointer) String() string {
	var b strings.Builder
	for _, tok := range p {
		b.WriteByte('/')
		b.WriteString(EscapeToken(tok))
	}
	return b.String()
}

// PropertyPath is a pointer into a resource model, the part of a schema's
// property pointer after /properties: /properties/Rules/*/Arn is
// [Rules * Arn].
type PropertyPath []string

// ParsePropertyPath parses a schema's property pointer
// (/properties/NAME/...). It fails when the pointer does not parse or
// names nothing under /properties.
func ParsePropertyPath(s string) (PropertyPath, error) {
	p, err := ParsePointer(s)
	if err != nil {
		return nil, err
	}
	if len(p) < 2 || p[0] != "properties" {
		return nil, fmt.Errorf("JSON pointer %q is not a property: it does not start with /properties/", s)
	}
	return PropertyPath(p[1:]), nil
}

// ParsePropertyPaths parses a list of property pointers, naming the first
// one that fails.
func ParsePropertyPaths(pointers []string) ([]PropertyPath, error) {
	out := make([]PropertyPath, 0, len(pointers))
	for _, s := range pointers {
		p, err := ParsePropertyPath(s)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// String formats the path as the schema's pointer, /properties/....
func (p PropertyPath) String() string {
	return "/properties" + Pointer(p).String()
}
