package emulator

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/cairn-iac/cairn/cloudcontrol/cloudcontroltest"
)

// TestSchemaPointers holds the emulator's reading of schema pointers to
// the shared RFC 6901 table: a write-only property whose name holds "/"
// or "~" is kept in the store and left out of answers, a read-only one is
// never taken from the caller, and a pointer that is not a property
// refuses the schema.
func TestSchemaPointers(t *testing.T) {
	for _, tc := range cloudcontroltest.PointerCases(t) {
		t.Run(tc.Name, func(t *testing.T) {
			for _, list := range []string{"writeOnlyProperties", "readOnlyProperties"} {
				doc := map[string]any{
					"typeName": "Test::Pointer::Case", "primaryIdentifier": []string{"/properties/Id"},
					"readOnlyProperties": []string{"/properties/Id"},
					"properties":         map[string]any{"Id": map[string]any{"type": "string"}},
				}
				if list == "writeOnlyProperties" {
					doc[list] = []string{tc.Pointer}
				} else {
					doc[list] = []string{"/properties/Id", tc.Pointer}
				}
				raw, _ := json.Marshal(doc)
				store := newMemStore()
				h, err := New("Test::Pointer::Case", raw, store)
				if !tc.Property {
					if err == nil {
						t.Fatalf("%s %q accepted", list, tc.Pointer)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				desired := valueAt(tc.Tokens[1:], "caller's")
				ev := h.Create(context.Background(), request("Test::Pointer::Case", "t", desired))
				mustSucceed(t, "create", ev)
				stored, _ := store.Get("Test::Pointer::Case", ev.Model["Id"].(string))
				storedModel := model(t, string(stored))
				inAnswer, inStore := holds(ev.Model, tc.Tokens[1:]), holds(storedModel, tc.Tokens[1:])
				if list == "writeOnlyProperties" && (inAnswer || !inStore) {
					t.Errorf("write-only %q: in the answer %v (want false), in the store %v (want true)", tc.Pointer, inAnswer, inStore)
				}
				if list == "readOnlyProperties" && inStore {
					t.Errorf("read-only %q: the caller's value was stored", tc.Pointer)
				}
			}
		})
	}
}

// valueAt builds a model holding v at path, a one-element array at "*".
func valueAt(path []string, v any) map[string]any {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == "*" {
			v = []any{v}
		} else {
			v = map[string]any{path[i]: v}
		}
	}
	return v.(map[string]any)
}

// holds reports whether model has the string "caller's" at path.
func holds(model map[string]any, path []string) bool {
	found := false
	visitParents(model, propPath(path), func(parent map[string]any, key string) {
		if parent[key] == "caller's" {
			found = true
		}
	})
	return found
}
