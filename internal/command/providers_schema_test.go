package command

import (
	"bytes"
	"encoding/json"
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/zclconf/go-cty/cty"
)

// providersSchema runs "cairn providers schema -json" in dir and parses
// the output with terraform-json, as a tool written for Terraform would.
func providersSchema(t *testing.T, dir string) *tfjson.ProviderSchemas {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Run([]string{"-chdir=" + dir, "providers", "schema", "-json"},
		Streams{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }})
	if code != 0 {
		t.Fatalf("exit code %d\n%s", code, stderr.String())
	}
	var out tfjson.ProviderSchemas
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("terraform-json cannot read the output: %v", err)
	}
	return &out
}

// TestProvidersSchemaAWSCC checks the awscc provider's schema through
// terraform-json: the provider block, a resource with attributes of every
// kind of configurability, and the data sources.
func TestProvidersSchemaAWSCC(t *testing.T) {
	corpus := cfnSchemasDir()
	if corpus == "" {
		t.Skip("the CloudFormation schema corpus is not available (set CAIRN_CFN_SCHEMAS)")
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "schemas"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"AWS_S3_Bucket.json", "AWS_Logs_LogGroup.json"} {
		src, err := os.ReadFile(filepath.Join(corpus, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "schemas", f), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	config := `provider "awscc" {
  region  = "us-east-1"
  schemas = "schemas"
}
resource "awscc_s3_bucket" "b" {}
`
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}

	ps := providersSchema(t, dir).Schemas["registry.terraform.io/hashicorp/awscc"]
	if ps == nil {
		t.Fatalf("no schema for registry.terraform.io/hashicorp/awscc")
	}
	type flags struct {
		Type                                    string
		Nested                                  string
		Required, Optional, Computed, Sensitive bool
	}
	view := func(a *tfjson.SchemaAttribute) *flags {
		if a == nil {
			return nil
		}
		f := &flags{Required: a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive}
		if a.AttributeNestedType != nil {
			f.Nested = string(a.AttributeNestedType.NestingMode)
		} else {
			f.Type = a.AttributeType.FriendlyName()
		}
		return f
	}
	bucket := ps.ResourceSchemas["awscc_s3_bucket"]
	if bucket == nil {
		t.Fatalf("no awscc_s3_bucket resource")
	}
	cases := map[string]struct {
		reason string
		attrs  map[string]*tfjson.SchemaAttribute
		name   string
		want   *flags
	}{
		"bucket_name": {"Optional and not read-only: Optional+Computed.", bucket.Block.Attributes, "bucket_name", &flags{Type: "string", Optional: true, Computed: true}},
		"arn":         {"Read-only: Computed.", bucket.Block.Attributes, "arn", &flags{Type: "string", Computed: true}},
		"id":          {"The Cloud Control identifier.", bucket.Block.Attributes, "id", &flags{Type: "string", Computed: true}},
		"versioning":  {"An object with properties is a single nested attribute.", bucket.Block.Attributes, "versioning_configuration", &flags{Nested: "single", Optional: true, Computed: true}},
		"tags":        {"An array of objects, order-insensitive: a list nested attribute.", bucket.Block.Attributes, "tags", &flags{Nested: "list", Optional: true, Computed: true}},
		"region":      {"The provider block takes region.", ps.ConfigSchema.Block.Attributes, "region", &flags{Type: "string", Optional: true}},
		"schemas":     {"... and Cairn's schemas.", ps.ConfigSchema.Block.Attributes, "schemas", &flags{Type: "string", Optional: true}},
		"secret_key":  {"Credentials are sensitive.", ps.ConfigSchema.Block.Attributes, "secret_key", &flags{Type: "string", Optional: true, Sensitive: true}},
		"retention": {"Integers are numbers.", ps.ResourceSchemas["awscc_logs_log_group"].Block.Attributes, "retention_in_days",
			&flags{Type: "number", Optional: true, Computed: true}},
		"plural ids": {"Plural data sources list identifiers.", ps.DataSourceSchemas["awscc_s3_buckets"].Block.Attributes, "ids",
			&flags{Type: "set of string", Computed: true}},
		"singular id": {"Singular data sources take the identifier.", ps.DataSourceSchemas["awscc_s3_bucket"].Block.Attributes, "id",
			&flags{Type: "string", Required: true}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, view(tc.attrs[tc.name])); diff != "" {
				t.Errorf("%s\n%s (-want +got):\n%s", tc.reason, tc.name, diff)
			}
		})
	}
}

// terraformBinary returns Terraform 1.5.7's path (CAIRN_TERRAFORM, PATH, or
// GOPATH/bin, where make test installs it), or "".
func terraformBinary() string {
	if p := os.Getenv("CAIRN_TERRAFORM"); p != "" {
		return p
	}
	if p, err := exec.LookPath("terraform"); err == nil {
		return p
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		gopath = build.Default.GOPATH
	}
	p := filepath.Join(gopath, "bin", "terraform")
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// TestProvidersSchemaMatchesTerraform compares Cairn's providers schema
// JSON for the built-in terraform provider with Terraform 1.5.7's,
// terraform_data and terraform_remote_state alike. Descriptions are not
// compared, nor their kind: Cairn's are its own words in plain text
// (terraform_data's have none in Terraform, terraform_remote_state's are
// markdown, and configschema has no description kind).
func TestProvidersSchemaMatchesTerraform(t *testing.T) {
	tf := terraformBinary()
	if tf == "" {
		t.Skip("Terraform 1.5.7 is not installed (make test installs it)")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte("resource \"terraform_data\" \"a\" {\n  input = 1\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	terraform := func(args ...string) []byte {
		cmd := exec.Command(tf, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("terraform %v: %v\n%s", args, err, stderr.String())
		}
		return out
	}
	if v := terraform("version"); !bytes.Contains(v, []byte("Terraform v1.5.7")) {
		t.Skipf("not Terraform 1.5.7: %s", v)
	}
	terraform("init", "-input=false", "-no-color")
	var want tfjson.ProviderSchemas
	if err := json.Unmarshal(terraform("providers", "schema", "-json"), &want); err != nil {
		t.Fatal(err)
	}
	got := providersSchema(t, dir)

	const addr = "terraform.io/builtin/terraform"
	if want.Schemas[addr] == nil {
		t.Fatalf("Terraform printed no schema for %s", addr)
	}
	if diff := cmp.Diff(&want, got,
		cmp.Comparer(func(a, b cty.Type) bool { return a.Equals(b) }),
		cmpopts.IgnoreFields(tfjson.SchemaAttribute{}, "Description", "DescriptionKind"),
	); diff != "" {
		t.Errorf("providers schema -json (-terraform +cairn):\n%s", diff)
	}
}
