package command

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/cairn-iac/cairn/internal/configs"
)

// TestBackendHashMatchesTerraform checks the recorded backend hash and
// configuration against what Terraform 1.5.7's init wrote to
// .terraform/terraform.tfstate for the same blocks, so that either tool
// accepts the other's init.
func TestBackendHashMatchesTerraform(t *testing.T) {
	tests := map[string]struct {
		typ, body  string
		wantHash   uint64
		wantConfig string
	}{
		"pg empty":       {"pg", ``, 1949691007, `{"conn_str":null,"schema_name":null,"skip_index_creation":null,"skip_schema_creation":null,"skip_table_creation":null}`},
		"pg schema_name": {"pg", `schema_name = "s2"`, 2982676171, `{"conn_str":null,"schema_name":"s2","skip_index_creation":null,"skip_schema_creation":null,"skip_table_creation":null}`},
		"local empty":    {"local", ``, 666019178, `{"path":null,"workspace_dir":null}`},
		"local path":     {"local", `path = "x.tfstate"`, 2326359980, `{"path":"x.tfstate","workspace_dir":null}`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			blk := testBackendBlock(t, tc.typ, tc.body)
			got, err := newBackendSetting(blk)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantHash, got.Hash); diff != "" {
				t.Errorf("hash (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantConfig, string(got.Config)); diff != "" {
				t.Errorf("config (-want +got):\n%s", diff)
			}
			if !got.sameConfig(blk) {
				t.Error("the record does not match the block it was made from")
			}
			back, err := got.block()
			if err != nil {
				t.Fatal(err)
			}
			if !got.sameConfig(back) {
				t.Error("the block rebuilt from the record does not match it")
			}
		})
	}
}

func testBackendBlock(t *testing.T, typ, body string) *configs.Backend {
	t.Helper()
	f, ds := hclsyntax.ParseConfig([]byte(body+"\n"), "main.tf", hcl.InitialPos)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	return &configs.Backend{Type: typ, Config: f.Body}
}

// TestBackendStateFileIsTerraforms writes the record of backend "pg" {}
// and compares it byte for byte with the .terraform/terraform.tfstate
// Terraform 1.5.7's init wrote for the same block (lineage aside, which
// is random): either tool then reads the other's.
func TestBackendStateFileIsTerraforms(t *testing.T) {
	const want = `{
    "version": 3,
    "serial": 1,
    "lineage": "000178a7-8daa-6f31-7589-54d3e09f1240",
    "backend": {
        "type": "pg",
        "config": {
            "conn_str": null,
            "schema_name": null,
            "skip_index_creation": null,
            "skip_schema_creation": null,
            "skip_table_creation": null
        },
        "hash": 1949691007
    },
    "modules": [
        {
            "path": [
                "root"
            ],
            "outputs": {},
            "resources": {},
            "depends_on": []
        }
    ]
}
`
	dir := t.TempDir()
	m := &Meta{Dir: dir, Streams: Streams{Getenv: func(string) string { return "" }}}
	next, err := newBackendSetting(testBackendBlock(t, "pg", ""))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.writeBackendState(&backendStateDoc{Lineage: "000178a7-8daa-6f31-7589-54d3e09f1240"}, next); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, ".terraform", backendStateFile))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	doc, err := m.readBackendState()
	if err != nil {
		t.Fatal(err)
	}
	if doc.Backend == nil || doc.Backend.Hash != next.Hash || doc.Serial != 1 {
		t.Errorf("read back %+v", doc)
	}
}
