package funcs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/bmatcuk/doublestar"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// MaxFilesetEntries is the most files and directories fileset looks at in
// one call: 100,000. A pattern such as "**" under "/" would otherwise walk
// the whole machine, /proc's symbolic-link loops included, holding every
// path found in memory.
const MaxFilesetEntries = 100_000

var errFilesetTooLarge = fmt.Errorf("the pattern reaches more than %d files and directories, the most fileset looks at; narrow the path or the pattern", MaxFilesetEntries)

// makeFileSetFunc builds fileset(path, pattern): the regular files under
// path (relative to baseDir) matching the doublestar pattern, as paths
// relative to path with forward slashes, as Terraform's fileset returns
// them, but walking at most MaxFilesetEntries entries.
func makeFileSetFunc(baseDir string) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "path", Type: cty.String}, {Name: "pattern", Type: cty.String}},
		Type:   function.StaticReturnType(cty.Set(cty.String)),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			dir := args[0].AsString()
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(baseDir, dir)
			}
			pattern := filepath.Join(dir, args[1].AsString())
			walk := &budgetOS{left: MaxFilesetEntries}
			matches, err := doublestar.GlobOS(walk, pattern)
			if err == nil && walk.left < 0 {
				err = errFilesetTooLarge
			}
			if err != nil {
				return cty.UnknownVal(cty.Set(cty.String)), fmt.Errorf("failed to glob pattern (%s): %w", pattern, err)
			}
			return fileSetResult(walk, dir, matches)
		},
	})
}

// fileSetResult keeps the regular files among matches, relative to dir.
func fileSetResult(walk *budgetOS, dir string, matches []string) (cty.Value, error) {
	var vals []cty.Value
	for _, m := range matches {
		fi, err := walk.Stat(m)
		if errors.Is(err, errFilesetTooLarge) {
			return cty.UnknownVal(cty.Set(cty.String)), err
		}
		if err != nil {
			return cty.UnknownVal(cty.Set(cty.String)), fmt.Errorf("failed to stat (%s): %s", m, err)
		}
		if !fi.Mode().IsRegular() {
			continue
		}
		rel, err := filepath.Rel(dir, m)
		if err != nil {
			return cty.UnknownVal(cty.Set(cty.String)), fmt.Errorf("failed to trim path of match (%s): %s", m, err)
		}
		vals = append(vals, cty.StringVal(filepath.ToSlash(rel)))
	}
	if len(vals) == 0 {
		return cty.SetValEmpty(cty.String), nil
	}
	return cty.SetVal(vals), nil
}

// budgetOS is the file system as doublestar walks it, failing every call
// once left is spent. doublestar treats a failed call as an empty or
// missing directory, so the walk unwinds at once; the caller then sees
// left below zero and reports the limit.
type budgetOS struct{ left int }

var _ doublestar.OS = (*budgetOS)(nil)

func (b *budgetOS) spend() error {
	b.left--
	if b.left < 0 {
		return errFilesetTooLarge
	}
	return nil
}

func (b *budgetOS) Lstat(name string) (os.FileInfo, error) {
	if err := b.spend(); err != nil {
		return nil, err
	}
	return os.Lstat(name)
}

func (b *budgetOS) Stat(name string) (os.FileInfo, error) {
	if err := b.spend(); err != nil {
		return nil, err
	}
	return os.Stat(name)
}

func (b *budgetOS) Open(name string) (*os.File, error) {
	if err := b.spend(); err != nil {
		return nil, err
	}
	return os.Open(name)
}

func (b *budgetOS) PathSeparator() rune { return os.PathSeparator }
