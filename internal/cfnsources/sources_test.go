package cfnsources

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTypeFilter(t *testing.T) {
	if TypeFilter(" ") != nil {
		t.Error("an empty list must keep every type (nil filter)")
	}
	keep := TypeFilter("AWS::S3::Bucket, awscc_logs_log_group,awscc_ec2_vpcs")
	cases := map[string]bool{
		"AWS::S3::Bucket":     true, // by CloudFormation name
		"AWS::Logs::LogGroup": true, // by resource name
		"AWS::EC2::VPC":       true, // by plural data source name
		"AWS::EC2::Subnet":    false,
	}
	for typ, want := range cases {
		if got := keep(typ); got != want {
			t.Errorf("%s: got %v, want %v", typ, got, want)
		}
	}
}

// TestLoadLayers: a directory laid over the built-in schemas replaces the
// type of the same name, and DirsOnly leaves the built-in ones out.
func TestLoadLayers(t *testing.T) {
	dir := t.TempDir()
	schema := `{"typeName":"AWS::Logs::LogGroup","description":"overlaid","properties":{"LogGroupName":{"type":"string"}},"primaryIdentifier":["/properties/LogGroupName"],"additionalProperties":false}`
	if err := os.WriteFile(filepath.Join(dir, "aws-logs-loggroup.json"), []byte(schema), 0o644); err != nil {
		t.Fatal(err)
	}
	keep := TypeFilter("AWS::Logs::LogGroup,AWS::S3::Bucket")
	c, _, err := Sources{Dirs: []string{dir}}.Load(keep)
	if err != nil {
		t.Fatal(err)
	}
	if lg := c.Type("AWS::Logs::LogGroup"); lg == nil || lg.Description != "overlaid" {
		t.Errorf("the directory's LogGroup must replace the built-in one: %+v", lg)
	}
	if c.Type("AWS::S3::Bucket") == nil {
		t.Error("the built-in bucket must stay")
	}
	only, _, err := Sources{Dirs: []string{dir}, DirsOnly: true}.Load(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(only.Types()) != 1 {
		t.Errorf("DirsOnly: %d types, want the directory's one", len(only.Types()))
	}
	if got := (Sources{Dirs: []string{"a", "b"}}).TopDir(); got != "b" {
		t.Errorf("TopDir %q", got)
	}
}

func TestCacheDir(t *testing.T) {
	env := map[string]string{"HOME": "/home/u"}
	get := func(k string) string { return env[k] }
	abs := func(p string) string { return filepath.Join("/wd", p) }
	if got := CacheDir(get, abs); got != "/home/u/.cache/cairn/cfn-schemas" {
		t.Errorf("HOME: %s", got)
	}
	env["XDG_CACHE_HOME"] = "/x"
	if got := CacheDir(get, abs); got != "/x/cairn/cfn-schemas" {
		t.Errorf("XDG: %s", got)
	}
	env["CAIRN_CFN_CACHE"] = "rel"
	if got := CacheDir(get, abs); got != "/wd/rel" {
		t.Errorf("CAIRN_CFN_CACHE: %s", got)
	}
}

// BenchmarkLoadOneType loads the one built-in type a plugin is told to
// serve (CAIRN_AWSCC_TYPES), which every plugin process does before its
// first answer: the filter looks at every built-in type's name.
func BenchmarkLoadOneType(b *testing.B) {
	for name, list := range map[string]string{"cloudformation-name": "AWS::Logs::LogGroup", "terraform-name": "awscc_logs_log_group"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, _, err := (Sources{}).Load(TypeFilter(list)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestDigest: the digest changes with every change to the schema set a
// run would load, and with nothing else.
func TestDigest(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	write := func(dir, name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(dir, "a.json", `{"typeName":"Initech::TPS::Report"}`)
	src := Sources{CacheDir: cache, Dirs: []string{dir}}
	digest := func(s Sources) string {
		t.Helper()
		d, err := s.Digest()
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	base := digest(src)
	if again := digest(src); again != base {
		t.Fatalf("the same set must keep its digest: %s then %s", base, again)
	}
	write(dir, "notes.txt", "not a schema")
	write(cache, "README", "not a schema")
	if got := digest(src); got != base {
		t.Errorf("files that are not schemas must not change the digest")
	}
	cases := map[string]struct {
		reason string
		change func() Sources
	}{
		"file rewritten": {"An edited schema (new size) is another set.", func() Sources {
			write(dir, "a.json", `{"typeName":"Initech::TPS::Report","description":"edited"}`)
			return src
		}},
		"file added to a dir": {"A new file of a directory is another set.", func() Sources {
			write(dir, "b.json", `{}`)
			return src
		}},
		"file added to the fetch cache": {"A fetched schema is another set.", func() Sources {
			write(cache, "AWS_Logs_LogGroup.json", `{}`)
			return src
		}},
		"dirs only": {"Leaving out the built-in schemas is another set.", func() Sources {
			s := src
			s.DirsOnly = true
			return s
		}},
		"another dir": {"Another directory is another set.", func() Sources {
			return Sources{CacheDir: cache, Dirs: []string{dir, t.TempDir()}}
		}},
	}
	seen := map[string]string{base: "base"}
	for _, name := range []string{"file rewritten", "file added to a dir", "file added to the fetch cache", "dirs only", "another dir"} {
		tc := cases[name]
		got := digest(tc.change())
		if prev, ok := seen[got]; ok {
			t.Errorf("%s: %s\ndigest equals that of %q", name, tc.reason, prev)
		}
		seen[got] = name
	}
	if _, err := (Sources{Dirs: []string{filepath.Join(dir, "missing")}}).Digest(); err != nil {
		t.Errorf("a directory that does not exist holds no schema, as Load reads it: %v", err)
	}
}

// TestLoadEntry: a type translated alone from its index entry is the type
// the catalog of the whole set holds, for built-in and directory
// documents, with the plural name the catalog settled; a stale entry is
// an error, never another type.
func TestLoadEntry(t *testing.T) {
	dir := t.TempDir()
	schema := `{"typeName":"AWS::Logs::LogGroup","description":"overlaid","properties":{"LogGroupName":{"type":"string"}},"primaryIdentifier":["/properties/LogGroupName"],"additionalProperties":false,"handlers":{"list":{"permissions":[]}}}`
	path := filepath.Join(dir, "lg.json")
	if err := os.WriteFile(path, []byte(schema), 0o644); err != nil {
		t.Fatal(err)
	}
	src := Sources{Dirs: []string{dir}}
	c, _, err := src.Load(TypeFilter("AWS::Logs::LogGroup,AWS::S3::Bucket,AWS::EC2::VPC"))
	if err != nil {
		t.Fatal(err)
	}
	idx := Index(c)
	if len(idx) != 3 {
		t.Fatalf("index %+v, want the 3 types", idx)
	}
	for _, e := range idx {
		got, err := LoadEntry(e)
		if err != nil {
			t.Fatalf("%s: %v", e.TypeName, err)
		}
		want := c.Type(e.TypeName)
		if diff := cmp.Diff(want.ResourceSchema(), got.ResourceSchema()); diff != "" {
			t.Errorf("%s from %s (-catalog +alone):\n%s", e.TypeName, e.File, diff)
		}
		if got.PluralName != want.PluralName || got.File != want.File || got.Description != want.Description {
			t.Errorf("%s: plural %q file %q, want %q %q", e.TypeName, got.PluralName, got.File, want.PluralName, want.File)
		}
	}
	lg := idx[slices.IndexFunc(idx, func(e Entry) bool { return e.TypeName == "AWS::Logs::LogGroup" })]
	if lg.File != path {
		t.Errorf("the overlaid LogGroup must name its file: %q", lg.File)
	}
	stale := lg
	stale.TypeName = "AWS::Logs::Other"
	if _, err := LoadEntry(stale); err == nil {
		t.Error("an entry whose document defines another type must be an error")
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadEntry(lg); err == nil {
		t.Error("an entry whose document is gone must be an error")
	}
}
