package cfnschema

import (
	"encoding/json"
	"testing"

	"github.com/cairn-iac/cairn/cloudcontrol/cloudcontroltest"
)

// TestPointerTable holds cfnschema's two uses of pointers to the shared
// RFC 6901 table: locating a pointer in a document for a diagnostic, and
// matching readOnlyProperties to the property they name, a property whose
// name holds "/" or "~" included.
func TestPointerTable(t *testing.T) {
	for _, tc := range cloudcontroltest.PointerCases(t) {
		t.Run(tc.Name, func(t *testing.T) {
			doc := map[string]any{"typeName": "Test::Pointer::Case", "description": "d"}
			if tc.Valid() {
				doc = jsonAt(tc.Tokens, doc)
			}
			src, _ := json.MarshalIndent(doc, "", "  ")
			line, _ := locatePointer(src, tc.Pointer)
			if found := line > 0; found != tc.Valid() {
				t.Errorf("locatePointer(%q) found the value: %v, want %v\n%s", tc.Pointer, found, tc.Valid(), src)
			}
			if !tc.Property || tc.Tokens[1] == "" {
				// A property named "" has no Terraform name to check.
				return
			}
			schema, _ := json.Marshal(map[string]any{
				"typeName": "Test::Pointer::Case", "description": "d", "additionalProperties": false,
				"properties":         map[string]any{"Id": map[string]any{"type": "string"}, tc.Tokens[1]: propertyAt(tc.Tokens[2:])},
				"primaryIdentifier":  []string{"/properties/Id"},
				"readOnlyProperties": []string{"/properties/Id", tc.Pointer},
			})
			rt, diags := Load("case.json", schema)
			if rt == nil || len(diags) > 0 {
				t.Fatalf("loading: %v", diags)
			}
			var marked []string
			rt.Walk(func(a *Attribute) {
				if a.ReadOnly && a.CFNName != "Id" {
					marked = append(marked, a.Pointer)
				}
			})
			if want := tc.Tokens[len(tc.Tokens)-1]; len(marked) != 1 || marked[0] != tc.Pointer {
				t.Errorf("read-only attributes %q, want the one at %q (%s)", marked, tc.Pointer, want)
			}
		})
	}
}

// propertyAt is the schema of a property holding the path tokens below
// it: objects by name, arrays at "*", a string at the end.
func propertyAt(tokens []string) map[string]any {
	if len(tokens) == 0 {
		return map[string]any{"type": "string"}
	}
	if tokens[0] == "*" {
		return map[string]any{"type": "array", "items": propertyAt(tokens[1:])}
	}
	return map[string]any{"type": "object", "additionalProperties": false,
		"properties": map[string]any{tokens[0]: propertyAt(tokens[1:])}}
}

// jsonAt places a value at tokens in doc, making objects on the way.
func jsonAt(tokens []string, doc map[string]any) map[string]any {
	if len(tokens) == 0 {
		return doc
	}
	cur := doc
	for _, tok := range tokens[:len(tokens)-1] {
		next, ok := cur[tok].(map[string]any)
		if !ok {
			next = map[string]any{}
			cur[tok] = next
		}
		cur = next
	}
	cur[tokens[len(tokens)-1]] = true
	return doc
}
