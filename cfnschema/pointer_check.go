package cfnschema

import "fmt"

// checkPointers warns about readOnlyProperties, createOnlyProperties and
// writeOnlyProperties entries that name no property: the schema means
// something it does not say (14 such entries exist in the AWS registry, such
// as dotted paths or properties that were removed), and Cairn cannot honour
// them.
func (w *walker) checkPointers() {
	lists := []struct {
		key      string
		pointers []string
	}{
		{"readOnlyProperties", w.doc.ReadOnlyProperties},
		{"createOnlyProperties", w.doc.CreateOnlyProperties},
		{"writeOnlyProperties", w.doc.WriteOnlyProperties},
	}
	for _, l := range lists {
		for i, p := range l.pointers {
			if !w.seen[plainPointer(p)] {
				w.warnf(fmt.Sprintf("/%s/%d", l.key, i), "Pointer names no property",
					"%s is not a property of this schema; the entry is ignored", p)
			}
		}
	}
}
