package main

import (
	"encoding/json"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-iac/cairn/internal/cfnsources"
)

// TestSchemasMatchHashiCorp launches HashiCorp's awscc v1.97 and this
// plugin as Terraform does and compares, over the wire, what Terraform
// 1.12+ and 1.14's "terraform query" read of them: the identity schema
// of every resource type both serve must be equal (names, types,
// required/optional for import, descriptions, version), and the list
// resources must be a superset of HashiCorp's with equal list block
// schemas. The only list resources HashiCorp's has and this one lacks
// are types whose CloudFormation schema here has no list handler (Cloud
// Control cannot list them); each is checked to be one.
func TestSchemasMatchHashiCorp(t *testing.T) {
	if testing.Short() {
		t.Skip("launches both awscc plugins and compares every type")
	}
	ref := startPlugin(t, hashicorpAWSCC(t))
	cairn := startPlugin(t, buildPlugin(t), "CAIRN_PLUGIN_CACHE="+t.TempDir())

	var wantID, gotID struct {
		IdentitySchemas map[string]any `json:"identitySchemas"`
	}
	asJSON(t, ref.call(t, "GetResourceIdentitySchemas", nil), &wantID)
	asJSON(t, cairn.call(t, "GetResourceIdentitySchemas", nil), &gotID)
	compared, missing := 0, []string{}
	for name, want := range wantID.IdentitySchemas {
		got, ok := gotID.IdentitySchemas[name]
		if !ok {
			missing = append(missing, name)
			continue
		}
		compared++
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("identity schema of %s (-HashiCorp +Cairn):\n%s", name, diff)
		}
	}
	t.Logf("identity schemas: HashiCorp %d, Cairn %d, compared %d, HashiCorp's only %v", len(wantID.IdentitySchemas), len(gotID.IdentitySchemas), compared, missing)
	if compared < 1400 {
		t.Errorf("only %d identity schemas compared", compared)
	}

	var wantSchema, gotSchema struct {
		ListResourceSchemas map[string]any             `json:"listResourceSchemas"`
		ResourceSchemas     map[string]json.RawMessage `json:"resourceSchemas"`
	}
	asJSON(t, ref.call(t, "GetProviderSchema", nil), &wantSchema)
	asJSON(t, cairn.call(t, "GetProviderSchema", nil), &gotSchema)
	var unlisted []string
	for name, want := range wantSchema.ListResourceSchemas {
		got, ok := gotSchema.ListResourceSchemas[name]
		if !ok {
			unlisted = append(unlisted, name)
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("list resource schema of %s (-HashiCorp +Cairn):\n%s", name, diff)
		}
	}
	if len(gotSchema.ListResourceSchemas) <= len(wantSchema.ListResourceSchemas) {
		t.Errorf("Cairn serves %d list resources, HashiCorp %d: want more", len(gotSchema.ListResourceSchemas), len(wantSchema.ListResourceSchemas))
	}
	t.Logf("list resources: HashiCorp %d, Cairn %d; HashiCorp's only: %v", len(wantSchema.ListResourceSchemas), len(gotSchema.ListResourceSchemas), unlisted)
	checkUnlistable(t, unlisted, gotSchema.ResourceSchemas)

	var meta struct {
		ListResources []struct {
			TypeName string `json:"typeName"`
		} `json:"listResources"`
	}
	asJSON(t, cairn.call(t, "GetMetadata", nil), &meta)
	if len(meta.ListResources) != len(gotSchema.ListResourceSchemas) {
		t.Errorf("GetMetadata names %d list resources, GetProviderSchema %d", len(meta.ListResources), len(gotSchema.ListResourceSchemas))
	}
}

// checkUnlistable checks that every list resource HashiCorp's awscc has
// and Cairn's lacks is a resource type Cairn serves whose schema has no
// list handler.
func checkUnlistable(t *testing.T, names []string, resources map[string]json.RawMessage) {
	t.Helper()
	if len(names) == 0 {
		return
	}
	sort.Strings(names)
	catalog, _, err := cfnsources.FromEnv(os.Getenv, cfnsources.InWorkingDir).Load(cfnsources.TypeFilter(strings.Join(names, ",")))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		rt := catalog.ByTerraformName(name)
		if _, served := resources[name]; !served || rt == nil {
			t.Errorf("HashiCorp's awscc lists %s, which Cairn does not serve at all", name)
			continue
		}
		if _, ok := rt.Handlers["list"]; ok {
			t.Errorf("%s has a list handler but no list resource", name)
		}
	}
}
