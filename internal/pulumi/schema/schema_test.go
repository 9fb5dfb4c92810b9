package schema

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/cairn-iac/cairn/internal/builtin"
	"github.com/cairn-iac/cairn/internal/cfnregistry"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/awscc"
	"github.com/cairn-iac/cairn/internal/testproviders"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// awsccSchema returns the awscc provider's schema over the built-in
// CloudFormation schemas that keep selects (all when nil).
func awsccSchema(t testing.TB, keep func(string) bool) providers.GetProviderSchemaResponse {
	t.Helper()
	docs, err := cfnregistry.Builtin(keep)
	if err != nil {
		t.Fatal(err)
	}
	srcs := make([]cfnschema.Source, len(docs))
	for i, d := range docs {
		srcs[i] = cfnschema.Source{Name: d.Name, Data: d.Data}
	}
	catalog, ds := cfnschema.LoadSources(srcs)
	p, err := awscc.NewFromCatalog(catalog, ds, "built-in")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := p.Factory()()
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Close()
	resp := inst.GetProviderSchema(context.Background())
	if resp.Diagnostics.HasErrors() {
		t.Fatal(resp.Diagnostics.Err())
	}
	return resp
}

func only(types ...string) func(string) bool {
	return func(name string) bool {
		for _, t := range types {
			if name == t {
				return true
			}
		}
		return false
	}
}

// TestGolden compares the package schema of small providers with golden
// files (go test -update rewrites them): terraform_data with the module
// component, and awscc with a
// log group (plain attributes, a list of tag objects, a data source and
// its plural) and a bucket (deeply nested objects, sensitive values).
func TestGolden(t *testing.T) {
	cases := map[string]Input{
		"terraform": {Name: "terraform", Version: "0.1.0", Schema: builtin.NewTerraformProvider().GetProviderSchema(context.Background()), ModuleComponent: true},
		"awscc":     {Name: "awscc", Version: "0.1.0", Schema: awsccSchema(t, only("AWS::Logs::LogGroup", "AWS::SecretsManager::Secret"))},
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			pkg, err := Build(in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(pkg, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", name+".json")
			if *update {
				if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(bytes.TrimSpace(got), bytes.TrimSpace(want)) {
				t.Errorf("package schema differs from %s (run with -update and review the diff)", golden)
			}
			checkWithPulumi(t, got)
		})
	}
}

// TestEveryAwsccType builds the schema of awscc with every built-in
// CloudFormation type and has Pulumi's own binder validate it.
func TestEveryAwsccType(t *testing.T) {
	if testing.Short() {
		t.Skip("loads every CloudFormation schema")
	}
	pkg, err := Build(Input{Name: "awscc", Version: "0.1.0", Schema: awsccSchema(t, nil)})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkg.Resources) < 1000 || len(pkg.Functions) < 2000 {
		t.Errorf("%d resources and %d functions: want every built-in type", len(pkg.Resources), len(pkg.Functions))
	}
	raw, err := json.Marshal(pkg)
	if err != nil {
		t.Fatal(err)
	}
	checkWithPulumi(t, raw)
}

// checkWithPulumi runs pulumi-schema-check (scripts/install-pulumi.sh),
// which validates a schema against Pulumi's metaschema and binds it.
func checkWithPulumi(t *testing.T, raw []byte) {
	t.Helper()
	dir, ok := testproviders.Pulumi()
	if !ok {
		t.Log("pulumi-schema-check not installed (scripts/install-pulumi.sh): schema not validated by Pulumi")
		return
	}
	f := filepath.Join(t.TempDir(), "schema.json")
	if err := os.WriteFile(f, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(filepath.Join(dir, "pulumi-schema-check"), f).CombinedOutput()
	if err != nil {
		t.Fatalf("Pulumi rejects the schema: %v\n%s", err, out)
	}
	if !strings.HasPrefix(string(out), "ok:") {
		t.Errorf("pulumi-schema-check: %s", out)
	}
}

// TestShape pins the mapping rules on a hand-made schema.
func TestShape(t *testing.T) {
	portAttrs := func() map[string]*configschema.Attribute {
		return map[string]*configschema.Attribute{"port": {Type: cty.Number, Required: true}}
	}
	in := Input{Name: "demo", Version: "1.0.0", Schema: providers.GetProviderSchemaResponse{
		Provider: providers.Schema{Block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
			"region":  {Type: cty.String, Optional: true},
			"version": {Type: cty.String, Optional: true},
			"token":   {Type: cty.String, Optional: true, Sensitive: true},
		}}},
		ResourceTypes: map[string]providers.Schema{"demo_thing_rule": {Block: &configschema.Block{
			Attributes: map[string]*configschema.Attribute{
				"id":       {Type: cty.String, Computed: true},
				"name":     {Type: cty.String, Required: true},
				"arn":      {Type: cty.String, Computed: true},
				"password": {Type: cty.String, Optional: true, Sensitive: true},
				"labels":   {Type: cty.Map(cty.String), Optional: true},
				"anything": {Type: cty.DynamicPseudoType, Optional: true},
				"ports":    {NestedType: &configschema.Object{Attributes: portAttrs(), Nesting: configschema.NestingList}, Optional: true},
			},
			BlockTypes: map[string]*configschema.NestedBlock{
				"rule": {Block: configschema.Block{Attributes: portAttrs()}, Nesting: configschema.NestingList, MinItems: 1},
			},
		}}},
	}}
	pkg, err := Build(in)
	if err != nil {
		t.Fatal(err)
	}
	r, ok := pkg.Resources["demo:thing/rule:Rule"]
	if !ok {
		t.Fatalf("no resource demo:thing/rule:Rule in %v", keys(pkg.Resources))
	}
	checks := []struct {
		what      string
		got, want any
	}{
		{"id is the resource ID, not a property", has(r.Properties, "id"), false},
		{"computed-only arn is an output", has(r.Properties, "arn"), true},
		{"computed-only arn is not an input", has(r.InputProperties, "arn"), false},
		{"required inputs", strings.Join(r.RequiredInputs, ","), "name,rule"},
		{"sensitive is secret", r.InputProperties["password"].Secret, true},
		{"map", r.InputProperties["labels"].Type.AdditionalProperties.Type, "string"},
		{"dynamic is Any", r.InputProperties["anything"].Ref, "pulumi.json#/Any"},
		{"nested list attribute", r.InputProperties["ports"].Items.Ref, "#/types/demo:thing/RulePort:RulePort"},
		{"block list", r.InputProperties["rule"].Items.Ref, "#/types/demo:thing/RuleRule:RuleRule"},
		{"nested required", strings.Join(pkg.Types["demo:thing/RulePort:RulePort"].Required, ","), "port"},
		{"provider version is Pulumi's", has(pkg.Provider.InputProperties, "version"), false},
		{"config variable", has(pkg.Config.Variables, "region"), true},
		{"config secret", pkg.Config.Variables["token"].Secret, true},
		{"functions", has(pkg.Functions, "demo:thing/getRule:getRule"), false},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.what, c.got, c.want)
		}
	}
	raw, _ := json.Marshal(pkg)
	checkWithPulumi(t, raw)
}

func has[V any](m map[string]V, k string) bool { _, ok := m[k]; return ok }

func keys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// TestNameCollision: two attributes whose types would share a name get
// distinct names instead of one merged type.
func TestNameCollision(t *testing.T) {
	obj := func(attr string) *configschema.Attribute {
		return &configschema.Attribute{Optional: true, NestedType: &configschema.Object{Nesting: configschema.NestingSingle,
			Attributes: map[string]*configschema.Attribute{attr: {Type: cty.String, Optional: true}}}}
	}
	list := obj("b")
	list.NestedType.Nesting = configschema.NestingList
	in := Input{Name: "demo", Schema: providers.GetProviderSchemaResponse{
		ResourceTypes: map[string]providers.Schema{"demo_x": {Block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
			"tag": obj("a"), "tags": list,
		}}}},
	}}
	pkg, err := Build(in)
	if err != nil {
		t.Fatal(err)
	}
	a := pkg.Resources["demo:index/x:X"].InputProperties["tag"].Ref
	b := pkg.Resources["demo:index/x:X"].InputProperties["tags"].Items.Ref
	if a == b || a == "" || b == "" {
		t.Fatalf("tag and tags share type %q / %q", a, b)
	}
}

// BenchmarkBuildEveryAwsccType builds and encodes the package schema of
// awscc with every built-in CloudFormation type (what GetSchema answers
// once per plugin process), from the provider schema already loaded.
func BenchmarkBuildEveryAwsccType(b *testing.B) {
	in := Input{Name: "awscc", Version: "0.1.0", Schema: awsccSchema(b, nil)}
	b.ReportAllocs()
	b.ResetTimer()
	size := 0
	for i := 0; i < b.N; i++ {
		pkg, err := Build(in)
		if err != nil {
			b.Fatal(err)
		}
		raw, err := json.Marshal(pkg)
		if err != nil {
			b.Fatal(err)
		}
		size = len(raw)
	}
	b.ReportMetric(float64(size)/(1<<20), "MiB")
}
