package server

import (
	"encoding/json"
	"testing"

	"github.com/cairn-iac/cairn/cloudcontrol"
	"github.com/cairn-iac/cairn/cloudcontrol/cloudcontroltest"
)

// TestSchemaPointers holds the server's reading of writeOnlyProperties,
// createOnlyProperties and primaryIdentifier to the shared RFC 6901
// table: a property whose name holds "/" or "~" is hidden, guarded and
// identified by its escaped pointer, and a refusal names the pointer as
// the schema wrote it.
func TestSchemaPointers(t *testing.T) {
	for _, tc := range cloudcontroltest.PointerCases(t) {
		t.Run(tc.Name, func(t *testing.T) {
			schema, _ := json.Marshal(map[string]any{
				"primaryIdentifier":    []string{tc.Pointer},
				"writeOnlyProperties":  []string{tc.Pointer},
				"createOnlyProperties": []string{tc.Pointer},
			})
			ti, err := parseTypeInfo(&cloudcontrol.ResourceType{Name: "Test::Pointer::Case", Schema: schema})
			if !tc.Property {
				if err == nil {
					t.Fatalf("schema with pointer %q accepted", tc.Pointer)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			model := modelAt(tc.Tokens[1:], "v1")
			if id, err := ti.identifier(model); (tc.Name == "nested") != (err != nil) || (err == nil && id != "v1") {
				t.Errorf("identifier = %q, %v; want v1 (an error through an array)", id, err)
			}
			if got := encodeModel(ti.public(model)); got != "{}" && got != `{"Rules":[{}]}` {
				t.Errorf("public model = %s, want the write-only value gone", got)
			}
			if got := ti.changedCreateOnly(model, modelAt(tc.Tokens[1:], "v2")); got != tc.Pointer {
				t.Errorf("changed createOnly property = %q, want %q", got, tc.Pointer)
			}
		})
	}
}

// modelAt builds a model holding v at path, a one-element array at "*".
func modelAt(path []string, v any) map[string]any {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == "*" {
			v = []any{v}
		} else {
			v = map[string]any{path[i]: v}
		}
	}
	return v.(map[string]any)
}
