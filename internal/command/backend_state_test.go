package command

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
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

// TestBackendInitRequired: every command but init compares the backend
// block with init's record and refuses, with Terraform 1.5.7's reason,
// a block added, removed or changed; a block written another way, or no
// block and no record, needs nothing. Local blocks, so it runs without
// PostgreSQL.
func TestBackendInitRequired(t *testing.T) {
	const resource = "resource \"terraform_data\" \"a\" {}\n"
	tests := map[string]struct {
		initWith, runWith string
		wantReason        string
	}{
		"no block, no record":    {"", "", ""},
		"block added":            {"", `backend "local" {}`, `Reason: Initial configuration of the requested backend "local"`},
		"block removed":          {`backend "local" {}`, "", `Reason: Unsetting the previously set backend "local"`},
		"argument changed":       {`backend "local" {}`, `backend "local" { path = "other.tfstate" }`, `Reason: Backend configuration block has changed`},
		"same block reformatted": {`backend "local" { path = "x.tfstate" }`, "backend \"local\" {\n  path = \"x.tfstate\"\n}", ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			write := func(block string) {
				src := resource
				if block != "" {
					src = "terraform {\n" + block + "\n}\n" + resource
				}
				if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			write(tc.initWith)
			var out, errOut bytes.Buffer
			if code := Run([]string{"-chdir=" + dir, "init", "-no-color", "-input=false"}, Streams{Stdout: &out, Stderr: &errOut}); code != 0 {
				t.Fatalf("init exited %d:\n%s", code, errOut.String())
			}
			write(tc.runWith)
			out.Reset()
			errOut.Reset()
			code := Run([]string{"-chdir=" + dir, "plan", "-no-color", "-input=false"}, Streams{Stdout: &out, Stderr: &errOut})
			if tc.wantReason == "" {
				if code != 0 {
					t.Fatalf("plan exited %d:\n%s", code, errOut.String())
				}
				return
			}
			if code != 1 || !strings.Contains(errOut.String(), tc.wantReason) || !strings.Contains(errOut.String(), "please run \"cairn init\"") {
				t.Fatalf("plan exited %d; want 1 with %q:\n%s", code, tc.wantReason, errOut.String())
			}
			if strings.Contains(out.String(), "to add") {
				t.Errorf("plan planned against the unset-up backend:\n%s", out.String())
			}
		})
	}
}

// TestInitRefusesUnreadablePreviousBackend: a record of a backend Cairn
// does not have (Terraform's init for s3) is not read as a local one.
func TestInitRefusesUnreadablePreviousBackend(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte("resource \"terraform_data\" \"a\" {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".terraform"), 0o755); err != nil {
		t.Fatal(err)
	}
	record := `{"version": 3, "serial": 1, "lineage": "x", "backend": {"type": "s3", "config": {"bucket": "b"}, "hash": 1}, "modules": []}`
	if err := os.WriteFile(filepath.Join(dir, ".terraform", "terraform.tfstate"), []byte(record), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := Run([]string{"-chdir=" + dir, "init", "-no-color", "-migrate-state"}, Streams{Stdout: &out, Stderr: &errOut})
	if code != 1 || !strings.Contains(errOut.String(), `"s3" backend`) || !strings.Contains(errOut.String(), "cairn init -reconfigure") {
		t.Fatalf("init exited %d:\n%s", code, errOut.String())
	}
}

// TestInitReconfigureFirstBlockAsks: -reconfigure disregards a recorded
// backend only. With a first backend block there is none, and the
// default local backend's state is offered to the new backend as without
// it, as in Terraform 1.5.7: "terraform init -reconfigure -input=false"
// (a common CI line) fails with the question rather than starting the new
// backend empty beside a state that tracks every object.
func TestInitReconfigureFirstBlockAsks(t *testing.T) {
	dir := t.TempDir()
	write := func(src string) {
		if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := Run(append([]string{"-chdir=" + dir}, args...), Streams{Stdout: &out, Stderr: &errOut})
		return code, out.String(), errOut.String()
	}
	const resource = "resource \"terraform_data\" \"a\" {}\n"
	write(resource)
	if code, _, errOut := run("apply", "-no-color", "-auto-approve"); code != 0 {
		t.Fatalf("apply exited %d:\n%s", code, errOut)
	}
	write("terraform {\n  backend \"local\" {\n    path = \"other.tfstate\"\n  }\n}\n" + resource)

	code, _, errOut := run("init", "-no-color", "-reconfigure", "-input=false")
	if code != 1 || !strings.Contains(errOut, "Do you want to copy existing state to the new backend?") {
		t.Fatalf("init -reconfigure -input=false exited %d; want 1 with the question:\n%s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform", "terraform.tfstate")); !os.IsNotExist(err) {
		t.Errorf("init recorded the backend although it stopped: %v", err)
	}
	if code, _, errOut := run("init", "-no-color", "-reconfigure", "-force-copy"); code != 0 {
		t.Fatalf("init -reconfigure -force-copy exited %d:\n%s", code, errOut)
	}
	code, out, errOut := run("plan", "-no-color", "-detailed-exitcode")
	if code != 0 {
		t.Errorf("plan after the copy exited %d, want 0 (no changes):\n%s%s", code, out, errOut)
	}
}
