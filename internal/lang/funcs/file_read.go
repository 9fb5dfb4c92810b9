package funcs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	homedir "github.com/mitchellh/go-homedir"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// makeFileFunc builds one of the functions that read a whole file: file,
// filebase64 and the file hashing functions. They differ only in what they
// make of the bytes, which is result; path is the user's path, for messages.
//
// go-cty-funcs has file and filebase64 but not the hashing functions, and
// keeps its reader to itself; one reader here gives the whole family the
// same path rules and the same messages.
func makeFileFunc(baseDir string, result func(path string, src []byte) (cty.Value, error)) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "path", Type: cty.String}},
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			path := args[0].AsString()
			src, err := readModuleFile(baseDir, path)
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			return result(path, src)
		},
	})
}

// readModuleFile reads the file at path as Terraform's file functions do: a
// leading "~" stands for the user's home directory, and a relative path is
// relative to baseDir, the module's directory. Errors are for the user and
// name the resolved path; the caller hides them if the path is sensitive.
func readModuleFile(baseDir, path string) ([]byte, error) {
	p, err := homedir.Expand(path)
	if err != nil {
		return nil, fmt.Errorf("failed to expand ~: %w", err)
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(baseDir, p)
	}
	p = filepath.Clean(p)
	src, err := os.ReadFile(p)
	switch {
	case err == nil:
		return src, nil
	case errors.Is(err, fs.ErrNotExist):
		// A common mistake is to read a file a resource will write; file
		// functions run before any resource exists, so say where to look.
		return nil, fmt.Errorf("no file exists at %s; file functions read only files that ship with the configuration, so to use a file that a resource creates, refer to that resource's attributes instead", p)
	default:
		var pathErr *fs.PathError
		if errors.As(err, &pathErr) {
			err = pathErr.Err
		}
		return nil, fmt.Errorf("failed to read %s: %w", p, err)
	}
}
