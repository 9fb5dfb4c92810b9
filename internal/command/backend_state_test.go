package command

import (
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
