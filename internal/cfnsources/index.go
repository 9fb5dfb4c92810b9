package cfnsources

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/cairn-iac/cairn/internal/cfnregistry"
)

// Entry names one type of a loaded catalog and the document it came
// from, so that a later process can translate that type alone
// (LoadEntry) instead of the whole set: a plugin launch that serves a
// few types pays for those only.
type Entry struct {
	TypeName      string `json:"type"`
	TerraformName string `json:"terraform"`
	// PluralName and PluralUnavailable are as the catalog settled them:
	// a plural name another type took is cleared by assembling the set,
	// which translating the one document cannot know.
	PluralName        string `json:"plural,omitempty"`
	PluralUnavailable string `json:"pluralUnavailable,omitempty"`
	Suppressed        string `json:"suppressed,omitempty"`
	// Listable says the schema has a list handler.
	Listable bool `json:"listable,omitempty"`
	// File is the document's name as the type records it: a path, or
	// "built-in TYPE.json" for the archive built into Cairn.
	File string `json:"file"`
}

// Index lists every type of c (suppressed ones included), sorted by
// CloudFormation type name.
func Index(c *cfnschema.Catalog) []Entry {
	types := c.Types()
	for _, s := range c.Suppressed() {
		types = append(types, c.Type(s.TypeName))
	}
	out := make([]Entry, 0, len(types))
	for _, t := range types {
		out = append(out, Entry{TypeName: t.TypeName, TerraformName: t.TerraformName, PluralName: t.PluralName,
			PluralUnavailable: t.PluralUnavailable, Suppressed: t.Suppressed, Listable: hasList(t), File: t.File})
	}
	sortEntries(out)
	return out
}

// hasList reports whether a type's schema has a list handler.
func hasList(t *cfnschema.ResourceType) bool {
	_, ok := t.Handlers["list"]
	return ok
}

func sortEntries(es []Entry) {
	sort.Slice(es, func(i, j int) bool { return es[i].TypeName < es[j].TypeName })
}

// builtinPrefix starts the names of built-in documents (cfnregistry.Builtin).
const builtinPrefix = "built-in "

// LoadEntry translates the one document e names, exactly as Load
// translated it among the others: the same document, the catalog's
// plural name. The error says the document is gone or no longer
// defines e's type (the index is stale), or does not translate.
func LoadEntry(e Entry) (*cfnschema.ResourceType, error) {
	data, err := entryDocument(e)
	if err != nil {
		return nil, err
	}
	t, ds := cfnschema.Load(e.File, data)
	if t == nil {
		return nil, fmt.Errorf("translating %s: %s", e.TypeName, firstError(ds))
	}
	if t.TypeName != e.TypeName || t.TerraformName != e.TerraformName {
		return nil, fmt.Errorf("%s no longer defines %s", e.File, e.TypeName)
	}
	t.PluralName, t.PluralUnavailable = e.PluralName, e.PluralUnavailable
	return t, nil
}

// entryDocument reads the document e names.
func entryDocument(e Entry) ([]byte, error) {
	if !strings.HasPrefix(e.File, builtinPrefix) {
		data, err := os.ReadFile(e.File)
		if err != nil {
			return nil, fmt.Errorf("reading the schema of %s: %w", e.TypeName, err)
		}
		return data, nil
	}
	docs, err := cfnregistry.Builtin(func(typeName string) bool { return typeName == e.TypeName })
	if err != nil {
		return nil, err
	}
	for _, d := range docs {
		if d.Name == e.File {
			return d.Data, nil
		}
	}
	return nil, fmt.Errorf("the built-in schemas have no %s", e.File)
}

// firstError describes why a document did not translate.
func firstError(ds cfnschema.Diagnostics) string {
	if errs := ds.Errors(); len(errs) > 0 {
		return errs[0].String()
	}
	return "no type"
}
