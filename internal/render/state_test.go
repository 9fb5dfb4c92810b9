package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/states"
	"github.com/google/go-cmp/cmp"
)

// stage1State is the state Terraform wrote after applying stage1.tf,
// rebuilt from `terraform show -json`.
func stage1State(t *testing.T) *states.State {
	t.Helper()
	schemas := terraformSchemas(t)
	src := readGolden(t, "terraform/s1/state_stage1.json")
	var ts = new(tfjsonState)
	ts.decode(t, src)
	return stateFromTerraform(t, &ts.State, schemas)
}

// TestStateMatchesTerraform compares State with `terraform show`.
func TestStateMatchesTerraform(t *testing.T) {
	schemas := terraformSchemas(t)
	s := stage1State(t)
	var got bytes.Buffer
	if err := State(&got, s, schemas, Options{}); err != nil {
		t.Fatal(err)
	}
	// Cairn's golden differs from Terraform's (terraform/s1/show_state.txt)
	// only where terraform_data outputs mirror a sensitive input: Terraform
	// prints them, Cairn shows "(sensitive value)" (see humanMarks).
	want := cairnGolden(t, "mirror/s1_show_state.txt", got.String())
	if diff := cmp.Diff(want, got.String()); diff != "" {
		t.Errorf("State() differs from `terraform show` (-want +got):\n%s", diff)
	}
	if strings.Contains(got.String(), "hunter") {
		t.Errorf("show prints a secret (hunter...)")
	}
}

// TestStateShowMatchesTerraform compares StateShow with `terraform state
// show ADDR` for each address Terraform was asked about.
func TestStateShowMatchesTerraform(t *testing.T) {
	schemas := terraformSchemas(t)
	s := stage1State(t)
	sections := strings.Split(readGolden(t, "terraform/s1/state_show.txt"), "=== ")
	for _, sec := range sections[1:] {
		addrText, want, _ := strings.Cut(sec, "\n")
		t.Run(addrText, func(t *testing.T) {
			addr := parseInstance(t, addrText)
			rs := s.Resource(addr.ContainingResource())
			schema, _, err := resourceSchema(schemas, rs.ProviderConfig.Provider, addr)
			if err != nil {
				t.Fatal(err)
			}
			obj, err := s.ResourceInstance(addr).Current.Decode(schema.ImpliedType())
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := StateShow(&got, addr, obj, schema, Options{}); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(want, "hunter") {
				// Terraform prints the mirror of a sensitive input;
				// Cairn does not (see humanMarks).
				want = cairnGolden(t, "mirror/s1_state_show_"+addrText+".txt", got.String())
			}
			if diff := cmp.Diff(want, got.String()); diff != "" {
				t.Errorf("StateShow() differs from `terraform state show` (-want +got):\n%s", diff)
			}
			if strings.Contains(got.String(), "hunter") {
				t.Errorf("state show prints a secret (hunter...)")
			}
		})
	}
}

func TestStateEmpty(t *testing.T) {
	var got bytes.Buffer
	if err := State(&got, states.NewState(), terraformSchemas(t), Options{}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("The state file is empty. No resources are represented.\n", got.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
