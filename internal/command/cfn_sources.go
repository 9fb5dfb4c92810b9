package command

import (
	"path/filepath"

	"github.com/cairn-iac/cairn/internal/cfnsources"
)

// cfnCacheDir is where "cairn cfn fetch" keeps schemas and later runs
// find them: CAIRN_CFN_CACHE, else $XDG_CACHE_HOME/cairn/cfn-schemas, else
// ~/.cache/cairn/cfn-schemas. Empty when none of these is set.
func (m *Meta) cfnCacheDir() string { return cfnsources.CacheDir(m.Getenv, m.absPath) }

// absPath resolves a path given on the command line or in the environment
// against the working directory (-chdir).
func (m *Meta) absPath(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(m.Dir, p)
}
