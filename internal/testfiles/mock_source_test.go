package testfiles

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestLoadMockSources: a mock_provider's source adds the types its files
// give and the block does not, and their overrides before the block's
// own; a directory that is not there is an error at the source.
func TestLoadMockSources(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "mocks")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"a.tfmock.hcl":  "mock_resource \"t_a\" {\n  defaults = { v = \"shared\" }\n}\nmock_resource \"t_b\" {\n  defaults = { v = \"shared\" }\n}\noverride_resource {\n  target = t_a.x\n}\n",
		"b.tfmock.json": `{"mock_data": {"d_c": {"defaults": {"v": "json"}}}}`,
		"ignored.hcl":   "not a mock file",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, ds := Parse("a.tftest.hcl", []byte(`
mock_provider "p" {
  source = "./mocks"
  mock_resource "t_b" {
    defaults = { v = "own" }
  }
  override_resource {
    target = t_b.y
  }
}
mock_provider "q" {
  alias  = "missing"
  source = "./nowhere"
}
run "r" {}
`))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	read, ds := f.LoadMockSources(root)
	if len(ds) != 1 || ds[0].Summary != "Failed to read mock data" || ds[0].Subject == nil || ds[0].Subject.Start.Line != 13 {
		t.Errorf("diagnostics %v, want one for the missing directory at line 13", ds)
	}
	if _, ok := read["mocks/a.tfmock.hcl"]; !ok || len(read) != 2 {
		t.Errorf("files read: %v", keys(read))
	}
	mp := f.Mocks[0]
	checks := map[string]bool{
		"a type only the files give":           mp.Resources["t_a"].GetAttr("v").RawEquals(cty.StringVal("shared")),
		"the block's own default wins":         mp.Resources["t_b"].GetAttr("v").RawEquals(cty.StringVal("own")),
		"a data source from the JSON file":     mp.Data["d_c"].GetAttr("v").RawEquals(cty.StringVal("json")),
		"the files' overrides first, then own": len(mp.Overrides) == 2 && traversalString(mp.Overrides[0].Target) == "t_a.x" && traversalString(mp.Overrides[1].Target) == "t_b.y",
	}
	for what, ok := range checks {
		if !ok {
			t.Errorf("want %s: %+v", what, mp)
		}
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
