package cfnsources

import (
	"os"
	"path/filepath"
	"testing"
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
