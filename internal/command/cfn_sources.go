package command

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/cairn-iac/cairn/internal/cfnregistry"
)

// cfnSources says which CloudFormation resource schemas a run serves: the
// ones built into cairn, laid over by the cache "cairn cfn fetch" fills,
// then by each directory of dirs in turn (CAIRN_AWSCC_SCHEMAS, then the
// provider block's schemas). A later layer's type replaces an earlier one
// of the same CloudFormation name; new names add private types.
type cfnSources struct {
	// cacheDir is the fetch cache; it need not exist.
	cacheDir string
	dirs     []string
	// dirsOnly leaves the built-in schemas and the cache out: the -schemas
	// flag of the cfn commands examines one directory alone.
	dirsOnly bool
}

// key identifies the sources, for caching a loaded provider per run.
func (s cfnSources) key() string {
	return fmt.Sprint(s.dirsOnly) + s.cacheDir + "\x00" + strings.Join(s.dirs, "\x00")
}

// load builds the catalog of the types keep reports true for (every type
// when keep is nil). Built-in and cached schemas are picked by file name
// before anything is parsed, so a run pays only for the types it uses;
// the directories of dirs are loaded whole (their file names are free).
func (s cfnSources) load(keep func(typeName string) bool) (*cfnschema.Catalog, cfnschema.Diagnostics, error) {
	var docs, cached []cfnregistry.Document
	var err error
	if !s.dirsOnly {
		if docs, err = cfnregistry.Builtin(keep); err != nil {
			return nil, nil, err
		}
		if cached, err = cfnregistry.ReadDir(s.cacheDir, keep); err != nil {
			return nil, nil, err
		}
	}
	catalog, ds := cfnschema.LoadSources(sources(docs))
	if len(cached) > 0 {
		over, ods := cfnschema.LoadSources(sources(cached))
		merged, mds := cfnschema.Merge(catalog, over)
		catalog, ds = merged, append(append(ds, ods...), mds...)
	}
	for _, dir := range s.dirs {
		over, ods := cfnschema.LoadDir(dir)
		merged, mds := cfnschema.Merge(catalog, over)
		catalog, ds = merged, append(append(ds, ods...), mds...)
	}
	return catalog, ds, nil
}

func sources(docs []cfnregistry.Document) []cfnschema.Source {
	out := make([]cfnschema.Source, len(docs))
	for i, d := range docs {
		out[i] = cfnschema.Source{Name: d.Name, Data: d.Data}
	}
	return out
}

// describe names the sources for messages.
func (s cfnSources) describe() string {
	if s.dirsOnly {
		return strings.Join(s.dirs, ", ")
	}
	parts := []string{"the built-in schemas"}
	if st, err := os.Stat(s.cacheDir); err == nil && st.IsDir() {
		parts = append(parts, s.cacheDir)
	}
	parts = append(parts, s.dirs...)
	return strings.Join(parts, ", ")
}

// cfnCacheDir is where "cairn cfn fetch" keeps schemas and later runs
// find them: CAIRN_CFN_CACHE, else $XDG_CACHE_HOME/cairn/cfn-schemas, else
// ~/.cache/cairn/cfn-schemas. Empty when none of these is set.
func (m *Meta) cfnCacheDir() string {
	if dir := m.Getenv("CAIRN_CFN_CACHE"); dir != "" {
		return m.absPath(dir)
	}
	if xdg := m.Getenv("XDG_CACHE_HOME"); xdg != "" {
		return filepath.Join(xdg, "cairn", "cfn-schemas")
	}
	if home := m.Getenv("HOME"); home != "" {
		return filepath.Join(home, ".cache", "cairn", "cfn-schemas")
	}
	return ""
}

// absPath resolves a path given on the command line or in the environment
// against the working directory (-chdir).
func (m *Meta) absPath(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(m.Dir, p)
}
