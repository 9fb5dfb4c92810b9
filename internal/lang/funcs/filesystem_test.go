package funcs

import (
	"os"
	"path/filepath"
	"testing"

	homedir "github.com/mitchellh/go-homedir"
	"github.com/zclconf/go-cty/cty"
)

// testdataDir is the module directory of the filesystem tests: relative
// paths in them resolve against it.
func testdataDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestFilesystemFunctions(t *testing.T) {
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	home, err := homedir.Dir()
	if err != nil {
		t.Fatal(err)
	}

	runExprCases(t, Table(testdataDir(t)), map[string]exprCase{
		"abspath": {
			reason: "abspath resolves against the working directory, not the module's",
			expr:   `abspath("foo/bar")`,
			want:   cty.StringVal(filepath.ToSlash(filepath.Join(cwd, "foo/bar"))),
		},
		"abspath list":    {expr: `abspath([])`, wantErr: "string required"},
		"basename":        {expr: `basename("a/b/c.txt")`, want: cty.StringVal("c.txt")},
		"basename list":   {expr: `basename([])`, wantErr: "string required"},
		"dirname":         {expr: `dirname("a/b/c.txt")`, want: cty.StringVal("a/b")},
		"dirname list":    {expr: `dirname([])`, wantErr: "string required"},
		"pathexpand":      {expr: `pathexpand("~/x")`, want: cty.StringVal(filepath.Join(home, "x"))},
		"pathexpand user": {expr: `pathexpand("~other/x")`, wantErr: "cannot expand user-specific home dir"},
		"file":            {expr: `file("hello.txt")`, want: cty.StringVal("Hello World")},
		"file missing": {
			reason:  "the message says where it looked and why a resource's file is not there",
			expr:    `file("nope.txt")`,
			wantErr: "no file exists at " + filepath.Join(testdataDir(t), "nope.txt") + "; file functions read only files that ship with the configuration",
		},
		"file directory": {expr: `file("set")`, wantErr: "failed to read " + filepath.Join(testdataDir(t), "set") + ": is a directory"},
		"file binary": {
			reason:  "file returns text; other bytes need filebase64",
			expr:    `file("latin1.bin")`,
			wantErr: "contents of latin1.bin are not valid UTF-8",
		},
		"file unknown": {expr: `file(unknown_str)`, want: cty.UnknownVal(cty.String)},
		"file sensitive path": {
			reason: "a sensitive path makes the contents sensitive",
			expr:   `file(sensitive("hello.txt"))`,
			want:   sens(cty.StringVal("Hello World")),
		},
		"file sensitive missing path": {
			reason:  "the message would name the path",
			expr:    `file(secret)`,
			wantErr: hiddenReason,
		},
		"filebase64":         {expr: `filebase64("latin1.bin")`, want: cty.StringVal("//4=")},
		"filebase64 missing": {expr: `filebase64("nope")`, wantErr: "no file exists at"},
		"fileexists":         {expr: `fileexists("hello.txt")`, want: cty.True},
		"fileexists not":     {expr: `fileexists("nope.txt")`, want: cty.False},
		"fileexists directory": {
			expr:    `fileexists("set")`,
			wantErr: "is not a regular file",
		},
		"fileset": {
			expr: `fileset("set", "*.txt")`,
			want: cty.SetVal([]cty.Value{cty.StringVal("a.txt"), cty.StringVal("b.txt")}),
		},
		"fileset recursive": {
			expr: `fileset(".", "set/**/*.txt")`,
			want: cty.SetVal([]cty.Value{
				cty.StringVal("set/a.txt"), cty.StringVal("set/b.txt"), cty.StringVal("set/sub/c.txt"),
			}),
		},
		"fileset none":        {expr: `fileset("set", "*.go")`, want: cty.SetValEmpty(cty.String)},
		"fileset bad pattern": {expr: `fileset("set", "[")`, wantErr: "failed to glob pattern"},
	})
}
