package propval

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/configschema"
)

// TestStateJSON: a stored object's outputs in state's form, for a
// provider's UpgradeResourceState: attributes of the current schema by
// their types, the rest (written with an older schema) passed on with
// Terraform's names, and the secret values' paths.
func TestStateJSON(t *testing.T) {
	block := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"id":          {Type: cty.String, Computed: true},
		"log_name":    {Type: cty.String, Optional: true},
		"retention":   {Type: cty.Number, Optional: true},
		"labels":      {Type: cty.Map(cty.String), Optional: true},
		"was_number":  {Type: cty.List(cty.String), Optional: true},
		"not_present": {Type: cty.Bool, Optional: true},
	}}
	pm := resource.NewPropertyMapFromMap(map[string]any{
		"id":         "x",
		"logName":    resource.MakeSecret(resource.NewStringProperty("s3cret")),
		"retention":  7,
		"labels":     map[string]any{"Team": "a", "costCenter": "b"},
		"wasNumber":  3,
		"oldRules":   []any{map[string]any{"fromPort": 1, "Env": "x"}},
		"__defaults": []any{},
	})
	raw, secret, err := Converter{Block: block}.StateJSON(pm)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"id": "x", "log_name": "s3cret", "retention": 7.0,
		"labels":      map[string]any{"Team": "a", "costCenter": "b"},
		"was_number":  3.0,
		"not_present": nil,
		"old_rules":   []any{map[string]any{"from_port": 1.0, "Env": "x"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("state JSON: -want +got:\n%s", diff)
	}
	if len(secret) != 1 || !secret[0].Equals(cty.GetAttrPath("log_name")) {
		t.Errorf("secret paths %#v, want log_name", secret)
	}
	pm["retention"] = resource.MakeComputed(resource.NewStringProperty(""))
	if _, _, err := (Converter{Block: block}).StateJSON(pm); err == nil {
		t.Error("an unknown value in a stored object was accepted")
	}
}
