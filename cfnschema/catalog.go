package cfnschema

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// Catalog is the set of resource types loaded from schema files. It is
// immutable and safe for concurrent use.
type Catalog struct {
	all    []*ResourceType // sorted by TypeName, suppressed types included
	byCFN  map[string]*ResourceType
	byTF   map[string]*ResourceType
	plural map[string]*ResourceType
}

// Suppression is a type that loaded but cannot be served, and why.
type Suppression struct {
	TypeName, TerraformName, Reason string
}

// LoadDir loads every *.json file of dir (not its subdirectories) as a
// resource schema. A file that cannot be read or translated yields error
// diagnostics and is left out; it never stops the other files. The catalog
// is never nil.
func LoadDir(dir string, opts ...Option) (*Catalog, Diagnostics) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return newCatalog(nil), Diagnostics{{Severity: Error, File: dir,
			Summary: "Cannot read schema directory", Detail: err.Error()}}
	}
	var paths []string
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".json") {
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
	}
	return LoadFiles(paths, opts...)
}

// LoadFiles loads the given schema files, concurrently (see
// WithConcurrency). Diagnostics come in the order of paths.
func LoadFiles(paths []string, opts ...Option) (*Catalog, Diagnostics) {
	srcs := make([]Source, len(paths))
	for i, p := range paths {
		srcs[i] = Source{Name: p}
	}
	return LoadSources(srcs, opts...)
}

// Source is one schema document to load: Name names it in diagnostics and,
// when Data is nil, is the file to read it from.
type Source struct {
	Name string
	Data []byte
}

// LoadSources loads schema documents held in memory or in files,
// concurrently (see WithConcurrency). Diagnostics come in the order of
// srcs. Built-in schemas embedded in a binary load this way.
func LoadSources(srcs []Source, opts ...Option) (*Catalog, Diagnostics) {
	o := newOptions(opts)
	patterns := newPatternCache()
	types := make([]*ResourceType, len(srcs))
	diags := make([]Diagnostics, len(srcs))
	sem := make(chan struct{}, o.workers)
	var wg sync.WaitGroup
	for i, s := range srcs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if s.Data == nil {
				types[i], diags[i] = loadFile(s.Name, &o, patterns)
				return
			}
			types[i], diags[i] = load(s.Name, s.Data, &o, patterns)
		}()
	}
	wg.Wait()
	var all Diagnostics
	for _, d := range diags {
		all = append(all, d...)
	}
	c, dup := assemble(types)
	return c, append(all, dup...)
}

func loadFile(path string, o *options, patterns *patternCache) (*ResourceType, Diagnostics) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, Diagnostics{{Severity: Error, File: path, Summary: "Cannot read schema file", Detail: err.Error()}}
	}
	return load(path, src, o, patterns)
}

// assemble builds the catalog from loaded types (nil entries are files that
// failed), refusing a type whose CloudFormation or Terraform name an
// earlier file already took, and dropping a plural data source whose name
// another data source already has.
func assemble(types []*ResourceType) (*Catalog, Diagnostics) {
	var diags Diagnostics
	var kept []*ResourceType
	byCFN := map[string]*ResourceType{}
	byTF := map[string]*ResourceType{}
	for _, t := range types {
		if t == nil {
			continue
		}
		if prev := byCFN[t.TypeName]; prev != nil {
			diags = append(diags, Diagnostic{Severity: Error, File: t.File, Pointer: "/typeName", Summary: "Duplicate type",
				Detail: fmt.Sprintf("%s is already defined by %s", t.TypeName, prev.File)})
			continue
		}
		if prev := byTF[t.TerraformName]; prev != nil {
			diags = append(diags, Diagnostic{Severity: Error, File: t.File, Pointer: "/typeName", Summary: "Duplicate Terraform type name",
				Detail: fmt.Sprintf("%s and %s (%s) both map to %s", t.TypeName, prev.TypeName, prev.File, t.TerraformName)})
			continue
		}
		byCFN[t.TypeName] = t
		byTF[t.TerraformName] = t
		kept = append(kept, t)
	}
	sort.Slice(kept, func(i, j int) bool { return kept[i].TypeName < kept[j].TypeName })
	c := newCatalog(kept)
	for _, t := range kept {
		if t.PluralName == "" {
			continue
		}
		if other := byTF[t.PluralName]; other != nil || c.plural[t.PluralName] != nil {
			diags = append(diags, Diagnostic{Severity: Warning, File: t.File, Summary: "Plural data source name taken",
				Detail: fmt.Sprintf("%s has no plural data source: %s is already a data source name", t.TypeName, t.PluralName)})
			t.PluralUnavailable = "its plural name " + t.PluralName + " is already a data source name"
			t.PluralName = ""
			continue
		}
		c.plural[t.PluralName] = t
	}
	return c, diags
}

func newCatalog(types []*ResourceType) *Catalog {
	c := &Catalog{
		all:    types,
		byCFN:  make(map[string]*ResourceType, len(types)),
		byTF:   make(map[string]*ResourceType, len(types)),
		plural: make(map[string]*ResourceType),
	}
	for _, t := range types {
		c.byCFN[t.TypeName] = t
		c.byTF[t.TerraformName] = t
	}
	return c
}

// Types returns the types that can be served, sorted by CloudFormation type
// name.
func (c *Catalog) Types() []*ResourceType {
	out := make([]*ResourceType, 0, len(c.all))
	for _, t := range c.all {
		if t.Suppressed == "" {
			out = append(out, t)
		}
	}
	return out
}

// Suppressed lists the types that loaded but cannot be served, with the
// reason, sorted by CloudFormation type name.
func (c *Catalog) Suppressed() []Suppression {
	var out []Suppression
	for _, t := range c.all {
		if t.Suppressed != "" {
			out = append(out, Suppression{t.TypeName, t.TerraformName, t.Suppressed})
		}
	}
	return out
}

// Type returns the type with a CloudFormation type name (suppressed types
// included), or nil.
func (c *Catalog) Type(typeName string) *ResourceType { return c.byCFN[typeName] }

// ByTerraformName returns the type whose resource (and singular data
// source) has the given Terraform name, or nil.
func (c *Catalog) ByTerraformName(name string) *ResourceType { return c.byTF[name] }

// ByPluralName returns the type whose plural data source has the given
// name, or nil.
func (c *Catalog) ByPluralName(name string) *ResourceType { return c.plural[name] }
