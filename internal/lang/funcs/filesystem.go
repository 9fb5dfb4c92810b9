package funcs

import (
	"encoding/base64"
	"unicode/utf8"

	"github.com/hashicorp/go-cty-funcs/filesystem"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// filesystemFunctions returns Terraform's filesystem functions, bar
// templatefile, which Table adds last (templatefile.go). abspath, basename,
// dirname, pathexpand and fileexists come from go-cty-funcs, the last bound
// to baseDir; file and filebase64 are Cairn's, sharing one bounded reader
// with the file hashing functions (file_read.go), and so is fileset, whose
// walk is bounded (fileset.go).
func filesystemFunctions(baseDir string) map[string]function.Function {
	return map[string]function.Function{
		"abspath":    filesystem.AbsPathFunc,
		"basename":   filesystem.BasenameFunc,
		"dirname":    filesystem.DirnameFunc,
		"file":       makeFileFunc(baseDir, fileText),
		"filebase64": makeFileFunc(baseDir, fileBase64),
		"fileexists": filesystem.MakeFileExistsFunc(baseDir),
		"fileset":    makeFileSetFunc(baseDir),
		"pathexpand": filesystem.PathExpandFunc,
	}
}

// fileText is file's result: the contents as a string. Terraform strings are
// Unicode text, so bytes that are not UTF-8 are an error rather than
// something silently mangled.
func fileText(path string, src []byte) (cty.Value, error) {
	if !utf8.Valid(src) {
		return cty.NilVal, function.NewArgErrorf(0, "contents of %s are not valid UTF-8; read it with filebase64 to get its bytes Base64-encoded, or hash it with a function such as filesha256", path)
	}
	return cty.StringVal(string(src)), nil
}

func fileBase64(_ string, src []byte) (cty.Value, error) {
	return cty.StringVal(base64.StdEncoding.EncodeToString(src)), nil
}
