package cfnsources

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/cairn-iac/cairn/internal/cfnregistry"
)

// Sources are the layers of one run. A later layer's type replaces an
// earlier one of the same CloudFormation name; new names add private
// types.
type Sources struct {
	// CacheDir is the fetch cache; it need not exist.
	CacheDir string
	// Dirs are laid over in order (CAIRN_AWSCC_SCHEMAS, then the provider
	// block's schemas).
	Dirs []string
	// DirsOnly leaves the built-in schemas and the cache out: the
	// -schemas flag of the cfn commands examines one directory alone.
	DirsOnly bool
}

// Key identifies the sources, for caching a loaded provider per run.
func (s Sources) Key() string {
	return fmt.Sprint(s.DirsOnly) + s.CacheDir + "\x00" + strings.Join(s.Dirs, "\x00")
}

// Load builds the catalog of the types keep reports true for (every type
// when keep is nil). Built-in and cached schemas are picked by file name
// before anything is parsed, so a run pays only for the types it uses;
// the directories of Dirs are loaded whole (their file names are free).
func (s Sources) Load(keep func(typeName string) bool) (*cfnschema.Catalog, cfnschema.Diagnostics, error) {
	var docs, cached []cfnregistry.Document
	var err error
	if !s.DirsOnly {
		if docs, err = cfnregistry.Builtin(keep); err != nil {
			return nil, nil, err
		}
		if cached, err = cfnregistry.ReadDir(s.CacheDir, keep); err != nil {
			return nil, nil, err
		}
	}
	catalog, ds := cfnschema.LoadSources(sources(docs))
	if len(cached) > 0 {
		over, ods := cfnschema.LoadSources(sources(cached))
		merged, mds := cfnschema.Merge(catalog, over)
		catalog, ds = merged, append(append(ds, ods...), mds...)
	}
	for _, dir := range s.Dirs {
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

// Describe names the sources for messages.
func (s Sources) Describe() string {
	if s.DirsOnly {
		return strings.Join(s.Dirs, ", ")
	}
	parts := []string{"the built-in schemas"}
	if st, err := os.Stat(s.CacheDir); err == nil && st.IsDir() {
		parts = append(parts, s.CacheDir)
	}
	parts = append(parts, s.Dirs...)
	return strings.Join(parts, ", ")
}

// CacheDir is where "cairn cfn fetch" keeps schemas and later runs find
// them: CAIRN_CFN_CACHE, else $XDG_CACHE_HOME/cairn/cfn-schemas, else
// ~/.cache/cairn/cfn-schemas. Empty when none of these is set. abs
// resolves a relative CAIRN_CFN_CACHE.
func CacheDir(getenv func(string) string, abs func(string) string) string {
	if dir := getenv("CAIRN_CFN_CACHE"); dir != "" {
		return abs(dir)
	}
	if xdg := getenv("XDG_CACHE_HOME"); xdg != "" {
		return filepath.Join(xdg, "cairn", "cfn-schemas")
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".cache", "cairn", "cfn-schemas")
	}
	return ""
}

// TypeFilter keeps the types a comma-separated list names, by their
// CloudFormation name or the awscc resource or plural data source name;
// an empty list keeps every type.
func TypeFilter(list string) func(string) bool {
	if strings.TrimSpace(list) == "" {
		return nil
	}
	want := map[string]bool{}
	// services are the service words of the Terraform names in the list
	// (awscc_logs_log_group: logs). Only a type of one of them can have
	// such a name, and naming every type would cost an inflection each
	// (most of a plugin's start-up with one type).
	services := map[string]bool{}
	for _, t := range strings.Split(list, ",") {
		t = strings.TrimSpace(t)
		want[t] = true
		if parts := strings.SplitN(t, "_", 3); len(parts) == 3 && !strings.Contains(t, "::") {
			services[parts[1]] = true
		}
	}
	return func(typeName string) bool {
		if want[typeName] {
			return true
		}
		parts := strings.Split(typeName, "::")
		if len(parts) != 3 || !services[strings.ToLower(parts[1])] {
			return false
		}
		res, plural, err := cfnschema.TerraformNames(typeName)
		return err == nil && (want[res] || want[plural])
	}
}

// TopDir is the last directory laid over the built-in schemas, against
// which problem locations are shown relative; "" when there is none.
func (s Sources) TopDir() string {
	if len(s.Dirs) == 0 {
		return ""
	}
	return s.Dirs[len(s.Dirs)-1]
}

// FromEnv returns the sources of a run as the CLI and the plugins read
// them: the fetch cache (see CacheDir), CAIRN_AWSCC_SCHEMAS, then dirs,
// later layers winning. abs resolves relative paths (against the
// working directory, or the CLI's -chdir).
func FromEnv(getenv func(string) string, abs func(string) string, dirs ...string) Sources {
	src := Sources{CacheDir: CacheDir(getenv, abs)}
	if env := getenv(SchemasEnv); env != "" {
		src.Dirs = append(src.Dirs, abs(env))
	}
	for _, d := range dirs {
		src.Dirs = append(src.Dirs, abs(d))
	}
	return src
}

// SchemasEnv names the environment variable of a directory of
// CloudFormation schemas laid over the built-in ones and the cache.
const SchemasEnv = "CAIRN_AWSCC_SCHEMAS"

// TypesEnv names the environment variable that limits a run or a plugin
// to some types (a list TypeFilter reads).
const TypesEnv = "CAIRN_AWSCC_TYPES"

// InWorkingDir resolves a relative path against the process's working
// directory, as a plugin binary (which has no -chdir) resolves the
// directories it is given.
func InWorkingDir(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	dir, err := os.Getwd()
	if err != nil {
		return p
	}
	return filepath.Join(dir, p)
}
