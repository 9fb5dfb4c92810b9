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
		// OpenTofu 1.12.6's init of this block.
		"s3 endpoints": {"s3", `bucket = "bkt"
    key    = "a/terraform.tfstate"
    region = "us-east-1"
    endpoints = { s3 = "http://127.0.0.1:39555" }
    use_path_style = true
    skip_credentials_validation = true
    skip_requesting_account_id = true
    use_lockfile = true`, 968167695, `{"access_key":null,"acl":null,"allowed_account_ids":null,"assume_role":null,"assume_role_duration_seconds":null,"assume_role_policy":null,"assume_role_policy_arns":null,"assume_role_tags":null,"assume_role_transitive_tag_keys":null,"assume_role_with_web_identity":null,"bucket":"bkt","custom_ca_bundle":null,"dynamodb_endpoint":null,"dynamodb_table":null,"ec2_metadata_service_endpoint":null,"ec2_metadata_service_endpoint_mode":null,"encrypt":null,"endpoint":null,"endpoints":{"dynamodb":null,"iam":null,"s3":"http://127.0.0.1:39555","sts":null},"external_id":null,"forbidden_account_ids":null,"force_path_style":null,"http_proxy":null,"https_proxy":null,"iam_endpoint":null,"insecure":null,"key":"a/terraform.tfstate","kms_key_id":null,"lock_tags":null,"max_retries":null,"no_proxy":null,"profile":null,"region":"us-east-1","retry_mode":null,"role_arn":null,"secret_key":null,"session_name":null,"shared_config_files":null,"shared_credentials_file":null,"shared_credentials_files":null,"skip_credentials_validation":true,"skip_metadata_api_check":null,"skip_region_validation":null,"skip_requesting_account_id":true,"skip_s3_checksum":null,"sse_customer_key":null,"state_tags":null,"sts_endpoint":null,"sts_region":null,"token":null,"use_dualstack_endpoint":null,"use_fips_endpoint":null,"use_lockfile":true,"use_path_style":true,"workspace_key_prefix":null}`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			blk := testBackendBlock(t, tc.typ, tc.body)
			got := testBackendSetting(t, blk)
			if diff := cmp.Diff(tc.wantHash, got.Hash); diff != "" {
				t.Errorf("hash (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantConfig, string(got.Config)); diff != "" {
				t.Errorf("config (-want +got):\n%s", diff)
			}
			if !got.sameConfig(blockConfigValue(blk)) {
				t.Error("the record does not match the block it was made from")
			}
			back, ds := got.args()
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			if !got.sameConfig(back.value()) {
				t.Error("the block rebuilt from the record does not match it")
			}
		})
	}
}

// testBackendSetting is the record of blk without -backend-config.
func testBackendSetting(t *testing.T, blk *configs.Backend) *backendSetting {
	t.Helper()
	a, ds := decodeBackendArgs(blk, nil)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	s, err := newBackendSetting(blk, a)
	if err != nil {
		t.Fatal(err)
	}
	return s
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
	next := testBackendSetting(t, testBackendBlock(t, "pg", ""))
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
	record := `{"version": 3, "serial": 1, "lineage": "x", "backend": {"type": "gcs", "config": {"bucket": "b"}, "hash": 1}, "modules": []}`
	if err := os.WriteFile(filepath.Join(dir, ".terraform", "terraform.tfstate"), []byte(record), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := Run([]string{"-chdir=" + dir, "init", "-no-color", "-migrate-state"}, Streams{Stdout: &out, Stderr: &errOut})
	if code != 1 || !strings.Contains(errOut.String(), `"gcs" backend`) || !strings.Contains(errOut.String(), "cairn init -reconfigure") {
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
