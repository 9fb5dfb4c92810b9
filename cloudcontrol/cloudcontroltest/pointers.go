package cloudcontroltest

import (
	_ "embed"
	"encoding/json"
	"testing"
)

//go:embed pointers.json
var pointersJSON []byte

// PointerCase is one RFC 6901 pointer and what it means.
type PointerCase struct {
	Name    string `json:"name"`
	Pointer string `json:"pointer"`
	// Tokens are the unescaped reference tokens; nil when the pointer
	// is invalid and must be refused.
	Tokens []string `json:"tokens"`
	// Property says whether the pointer names a property of a resource
	// model: /properties followed by at least one token.
	Property bool `json:"property"`
}

// Valid reports whether the pointer parses.
func (c PointerCase) Valid() bool { return c.Tokens != nil }

// PointerCases returns the shared table, failing t if it does not decode.
func PointerCases(t testing.TB) []PointerCase {
	t.Helper()
	var doc struct {
		Cases []PointerCase `json:"cases"`
	}
	if err := json.Unmarshal(pointersJSON, &doc); err != nil {
		t.Fatalf("decoding the pointer cases: %v", err)
	}
	return doc.Cases
}
