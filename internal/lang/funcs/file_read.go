package funcs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

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
	src, err := readRegularFile(p)
	switch {
	case err == nil:
		return src, nil
	case errors.Is(err, fs.ErrNotExist):
		// A common mistake is to read a file a resource will write; file
		// functions run before any resource exists, so say where to look.
		return nil, fmt.Errorf("no file exists at %s; file functions read only files that ship with the configuration, so to use a file that a resource creates, refer to that resource's attributes instead", p)
	case errors.Is(err, errNotRegular), errors.Is(err, errTooLarge):
		return nil, fmt.Errorf("cannot read %s: %w", p, err)
	default:
		var pathErr *fs.PathError
		if errors.As(err, &pathErr) {
			err = pathErr.Err
		}
		return nil, fmt.Errorf("failed to read %s: %w", p, err)
	}
}

// MaxReadFileSize is the largest file the file functions (file, filebase64,
// the file hashing functions, templatefile) read: 128 MiB. Their result is
// held in memory whole, and may be stored in the plan and the state.
const MaxReadFileSize = 128 << 20

var (
	errNotRegular = errors.New("it is not a regular file; file functions read only regular files, not devices, pipes or sockets")
	errTooLarge   = fmt.Errorf("it is larger than %d MiB, the most a file function reads", MaxReadFileSize>>20)
)

// readRegularFile reads the regular file at p, refusing anything else (a
// device such as /dev/zero never ends, a pipe may block forever) and
// anything larger than MaxReadFileSize, even if it grows while read.
func readRegularFile(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return nil, err
	case fi.IsDir():
		return nil, &fs.PathError{Op: "read", Path: p, Err: syscall.EISDIR}
	case !fi.Mode().IsRegular():
		return nil, errNotRegular
	case fi.Size() > MaxReadFileSize:
		return nil, errTooLarge
	}
	src, err := io.ReadAll(io.LimitReader(f, MaxReadFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(src) > MaxReadFileSize {
		return nil, errTooLarge
	}
	return src, nil
}
