package enginetest

import (
	"context"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// sensitiveInfo is the test provider with test_info's result declared
// sensitive, as local_sensitive_file's content is.
type sensitiveInfo struct{ *TestProvider }

func (p sensitiveInfo) GetProviderSchema(ctx context.Context) providers.GetProviderSchemaResponse {
	resp := p.TestProvider.GetProviderSchema(ctx)
	resp.DataSources["test_info"] = providers.Schema{Block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"input":  {Type: cty.String, Required: true},
		"result": {Type: cty.String, Computed: true, Sensitive: true},
	}}}
	return resp
}

// TestSensitiveDataReadDuringPlan: a data source read during planning
// reaches apply through the plan's prior state, where its schema's
// sensitive marks are not recorded; apply must apply them again, so that
// what is built from a sensitive attribute is recorded sensitive, as
// Terraform 1.5.7 records it. Before, apply saw the data source's value
// unmarked: terraform_data.t was stored with no sensitive_attributes
// (`cairn show` printed the secret) and the next plan proposed an update
// to mark it.
func TestSensitiveDataReadDuringPlan(t *testing.T) {
	const src = `
data "test_info" "d" {
  input = "hunter2"
}
resource "terraform_data" "t" {
  input = data.test_info.d.result
}
`
	h, ds := New(map[string]string{"main.tf": src})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	h.Providers[TestProviderAddr] = func() (providers.Interface, error) { return sensitiveInfo{&TestProvider{}}, nil }
	p, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if ds := h.Apply(p); ds.HasErrors() {
		t.Fatal(ds)
	}
	addr := addrs.AbsResourceInstance{Resource: addrs.ResourceInstance{Resource: addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "t"}}}
	is := h.State.ResourceInstance(addr)
	if is == nil || is.Current == nil {
		t.Fatalf("terraform_data.t not in state")
	}
	var got []string
	for _, p := range is.Current.AttrSensitivePaths {
		got = append(got, diags.FormatPath(p))
	}
	if diff := cmp.Diff([]string{".input"}, got); diff != "" {
		t.Errorf("terraform_data.t's sensitive paths: -want +got:\n%s", diff)
	}
	p, ds = h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if p.HasChanges() {
		t.Errorf("the next plan has changes; want none")
	}
}
