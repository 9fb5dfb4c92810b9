package plans

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Label is how progress lines name an import's object, as Terraform's
// do: "id=ID", or for an import by identity "identity=" and the
// identity's attributes as name=value, by name (null as <null>).
func (i *Importing) Label() string {
	if len(i.Identity) == 0 {
		return "id=" + i.ID
	}
	dec := json.NewDecoder(bytes.NewReader(i.Identity))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return "identity=" + string(i.Identity)
	}
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for j, n := range names {
		switch v := m[n].(type) {
		case nil:
			parts[j] = n + "=<null>"
		case string, json.Number, bool:
			parts[j] = fmt.Sprintf("%s=%v", n, v)
		default:
			parts[j] = n + "=<not-yet-supported>"
		}
	}
	return "identity=" + strings.Join(parts, ",")
}
