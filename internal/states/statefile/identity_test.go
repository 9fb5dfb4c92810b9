package statefile_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states/statefile"
)

// TestReadIdentity reads the resource identity Terraform 1.12+ stores
// beside an object (testdata/identity.tfstate, laid out as Terraform
// 1.12 writes it; TestRoundTrip writes it back byte for byte), and
// rejects an identity that is not an object.
func TestReadIdentity(t *testing.T) {
	data, err := os.ReadFile("testdata/identity.tfstate")
	if err != nil {
		t.Fatal(err)
	}
	f, err := statefile.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "awscc_logs_log_group", Name: "app"}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
	is := f.State.ResourceInstance(addr)
	if is == nil || is.Current == nil {
		t.Fatalf("no object at %s", addr)
	}
	id := is.Current.Identity
	if want := `{"account_id":"123456789012","log_group_name":"app","region":"eu-west-1"}`; string(id.JSON) != want || id.SchemaVersion != 0 {
		t.Errorf("identity %s (version %d), want %s (version 0)", id.JSON, id.SchemaVersion, want)
	}
	bad := strings.Replace(string(data), `"identity": {`, `"identity": ["x"], "was": {`, 1)
	if _, err := statefile.Read(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "invalid identity") {
		t.Errorf("an identity that is not an object: %v", err)
	}
}
