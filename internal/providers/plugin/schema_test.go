package plugin

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/render"
	"github.com/cairn-iac/cairn/internal/testproviders"
)

func TestSchemaAttributes(t *testing.T) {
	type attr struct {
		ty                           cty.Type
		required, optional, computed bool
	}
	cases := map[string]struct {
		reason   string
		provider string
		typeName string
		want     map[string]attr
	}{
		"random_pet": {"Protocol 5 types and flags, including a map.", "random", "random_pet", map[string]attr{
			"id":        {ty: cty.String, computed: true},
			"keepers":   {ty: cty.Map(cty.String), optional: true},
			"length":    {ty: cty.Number, optional: true, computed: true},
			"prefix":    {ty: cty.String, optional: true},
			"separator": {ty: cty.String, optional: true, computed: true},
		}},
		"random_id": {"A required number beside computed strings.", "random", "random_id", map[string]attr{
			"b64_std": {ty: cty.String, computed: true}, "b64_url": {ty: cty.String, computed: true},
			"byte_length": {ty: cty.Number, required: true}, "dec": {ty: cty.String, computed: true},
			"hex": {ty: cty.String, computed: true}, "id": {ty: cty.String, computed: true},
			"keepers": {ty: cty.Map(cty.String), optional: true}, "prefix": {ty: cty.String, optional: true},
		}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := launch(t, tc.provider)
			resp := c.GetProviderSchema(context.Background())
			noErrors(t, "GetProviderSchema", resp.Diagnostics)
			s, ok := resp.ResourceTypes[tc.typeName]
			if !ok {
				t.Fatalf("%s: no resource type %s", tc.reason, tc.typeName)
			}
			got := map[string]attr{}
			for n, a := range s.Block.Attributes {
				got[n] = attr{a.Type, a.Required, a.Optional, a.Computed}
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(attr{}), cmp.Comparer(func(a, b cty.Type) bool { return a.Equals(b) })); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

// TestSchemaNestedAttributes checks protocol 6's nested attributes arrive
// as nested types, through the self-launched test provider.
func TestSchemaNestedAttributes(t *testing.T) {
	c := launchSelf(t)
	if c.ProtocolVersion() != 6 {
		t.Errorf("negotiated protocol %d, want 6", c.ProtocolVersion())
	}
	resp := c.GetProviderSchema(context.Background())
	noErrors(t, "GetProviderSchema", resp.Diagnostics)
	rules := resp.ResourceTypes["cairntest_thing"].Block.Attributes["rules"]
	if rules == nil || rules.NestedType == nil || rules.NestedType.Nesting != configschema.NestingList {
		t.Fatalf("rules = %#v, want a list nested attribute", rules)
	}
	if port := rules.NestedType.Attributes["port"]; port == nil || !port.Required || !port.Type.Equals(cty.Number) {
		t.Errorf("rules.port = %#v, want a required number", port)
	}
}

// TestSchemaMatchesTerraform compares the whole schema of each real
// provider, as the client reads it, with what Terraform 1.5.7 prints for
// `terraform providers schema -json`: the ground truth for the protocol 5
// schema messages.
func TestSchemaMatchesTerraform(t *testing.T) {
	tf := terraformBinary(t)
	for name := range testproviders.Versions {
		t.Run(name, func(t *testing.T) {
			c := launch(t, name)
			resp := c.GetProviderSchema(context.Background())
			noErrors(t, "GetProviderSchema", resp.Diagnostics)
			want := terraformSchema(t, tf, name)
			got := cairnSchema(t, name, resp)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("schema differs from Terraform's (-want +got):\n%s", diff)
			}
		})
	}
}

func terraformBinary(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CAIRN_TERRAFORM"); p != "" {
		return p
	}
	t.Skip("CAIRN_TERRAFORM is not set: point it at Terraform 1.5.7 to compare schemas")
	return ""
}

// terraformSchema runs Terraform with the provider as a dev override and
// returns its schema JSON, decoded generically.
func terraformSchema(t *testing.T, tf, name string) any {
	t.Helper()
	dir := t.TempDir()
	bin := providerBinary(t, name)
	rc := filepath.Join(dir, "tfrc")
	write(t, rc, `provider_installation {
  dev_overrides { "hashicorp/`+name+`" = "`+filepath.Dir(bin)+`" }
}
`)
	write(t, filepath.Join(dir, "main.tf"), `terraform {
  required_providers {
    `+name+` = { source = "hashicorp/`+name+`" }
  }
}
`)
	cmd := exec.Command(tf, "providers", "schema", "-json")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "CHECKPOINT_DISABLE=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("terraform providers schema -json: %v", err)
	}
	var v any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	return withoutDescriptionKinds(v)
}

// withoutDescriptionKinds drops every description_kind: Cairn's schema
// model does not keep it (render prints "plain"), a known difference
// that is not the client's.
func withoutDescriptionKinds(v any) any {
	switch v := v.(type) {
	case map[string]any:
		delete(v, "description_kind")
		for k, e := range v {
			v[k] = withoutDescriptionKinds(e)
		}
	case []any:
		for i, e := range v {
			v[i] = withoutDescriptionKinds(e)
		}
	}
	return v
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// cairnSchema renders the client's schema as Cairn's `providers schema
// -json` does, decoded generically.
func cairnSchema(t *testing.T, name string, resp providers.GetProviderSchemaResponse) any {
	t.Helper()
	b, err := json.Marshal(render.ProviderSchemasJSON(providers.Schemas{addrs.NewDefaultProvider(name): &resp}))
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	// Terraform 1.5.7 predates provider-defined functions (1.8), so its
	// document has no "functions"; render's tests pin that key.
	for _, ps := range v.(map[string]any)["provider_schemas"].(map[string]any) {
		delete(ps.(map[string]any), "functions")
	}
	return withoutDescriptionKinds(v)
}
