package plugins

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/pulumi/propwire"
	"github.com/cairn-iac/cairn/internal/pulumi/schema"
	"github.com/cairn-iac/cairn/internal/pulumi/server"
)

const netModule = `
variable "cidr_block" {
  type        = string
  description = "The network's CIDR block."
}
variable "subnet_count" {
  type    = number
  default = 2
}
variable "tags" {
  type    = map(string)
  default = {}
}
variable "db_password" {
  type      = string
  sensitive = true
}
variable "settings" {
  type    = object({ dns = bool, name = string })
  default = null
}
output "vpc_id" {
  value = "vpc-1"
}
output "password" {
  value     = var.db_password
  sensitive = true
}
`

// moduleServer serves terraform-module from a project directory holding
// the module in net/.
func moduleServer(t *testing.T) (*server.Server, string) {
	t.Helper()
	cwd := t.TempDir()
	if err := os.MkdirAll(filepath.Join(cwd, "net"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cwd, "net", "main.tf"), []byte(netModule), 0o600); err != nil {
		t.Fatal(err)
	}
	s := server.New(server.Info{Name: ModulePlugin, Version: Version, Parameterize: moduleParams{cwd: cwd}, Modules: moduleOptions(cwd, func(string) string { return "" })},
		unparameterized(ModulePlugin, "./net netmod"), nil)
	t.Cleanup(func() { _ = s.Close() })
	return s, cwd
}

// TestParameterizeModule: terraform-module takes Pulumi's terraform-module
// arguments (SOURCE [VERSION] NAME) and its own value back; sources it
// cannot serve, and malformed parameters, are errors saying so.
func TestParameterizeModule(t *testing.T) {
	cases := []struct {
		what string
		req  *pulumirpc.ParameterizeRequest
		err  string
	}{
		{"local source and name", byArgs("./net", "netmod"), ""},
		{"by value", byValue("netmod", "0.0.1", `{"source":"./net","name":"netmod"}`), ""},
		{"registry source", byArgs("terraform-aws-modules/vpc/aws", "5.18.1", "vpc"), "registry and remote sources are not supported here yet"},
		{"local source with a version", byArgs("./net", "1.0.0", "netmod"), "is local and takes no version"},
		{"missing directory", byArgs("./nope", "nope"), "loading module"},
		{"bad package name", byArgs("./net", "9net"), `package name "9net"`},
		{"one argument", byArgs("./net"), "takes a module source, an optional version and a package name"},
		{"malformed value", byValue("netmod", "0.0.1", `[]`), "is not a terraform-module parameter"},
		{"a provider's value", byValue("random", "3.9.0", randomValue), "is not a terraform-module parameter"},
		{"value under another name", byValue("other", "0.0.1", `{"source":"./net","name":"netmod"}`), "the parameter names netmod 0.0.1, but the package is other 0.0.1"},
	}
	for _, c := range cases {
		t.Run(c.what, func(t *testing.T) {
			s, _ := moduleServer(t)
			resp, err := s.Parameterize(context.Background(), c.req)
			if err == nil && c.err != "" {
				// A bad package name is found when the schema is built.
				_, err = s.GetSchema(context.Background(), &pulumirpc.GetSchemaRequest{})
			}
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("got %v, want an error containing %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if resp.GetName() != "netmod" || resp.GetVersion() != localModuleVersion {
				t.Fatalf("got %s %s", resp.GetName(), resp.GetVersion())
			}
		})
	}
}

// TestModuleSchema: the typed package has one component, NAME:index:Module,
// whose inputs are the module's variables (typed, required ones required,
// sensitive ones secret) and whose outputs are its outputs.
func TestModuleSchema(t *testing.T) {
	s, _ := moduleServer(t)
	ctx := context.Background()
	if _, err := s.Parameterize(ctx, byArgs("./net", "netmod")); err != nil {
		t.Fatal(err)
	}
	resp, err := s.GetSchema(ctx, &pulumirpc.GetSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var pkg schema.Package
	if err := json.Unmarshal([]byte(resp.GetSchema()), &pkg); err != nil {
		t.Fatal(err)
	}
	if pkg.Parameterization == nil || pkg.Parameterization.BaseProvider.Name != ModulePlugin ||
		string(pkg.Parameterization.Parameter) != `{"source":"./net","name":"netmod"}` {
		t.Errorf("parameterization: %+v", pkg.Parameterization)
	}
	r, ok := pkg.Resources["netmod:index:Module"]
	if !ok || !r.IsComponent {
		t.Fatalf("netmod:index:Module: %+v (found %v)", r, ok)
	}
	wantIn := map[string]string{
		"cidrBlock":   `{"type":"string","description":"The network's CIDR block."}`,
		"subnetCount": `{"type":"number"}`,
		"tags":        `{"type":"object","additionalProperties":{"type":"string"}}`,
		"dbPassword":  `{"type":"string","secret":true}`,
		"settings":    `{"$ref":"#/types/netmod:index/ModuleSettings:ModuleSettings"}`,
	}
	for name, want := range wantIn {
		got, _ := json.Marshal(r.InputProperties[name])
		if string(got) != want {
			t.Errorf("input %s: got %s, want %s", name, got, want)
		}
	}
	if len(r.InputProperties) != len(wantIn) {
		t.Errorf("inputs: got %d, want %d", len(r.InputProperties), len(wantIn))
	}
	if got := strings.Join(r.RequiredInputs, ","); got != "cidrBlock,dbPassword" {
		t.Errorf("required inputs: %s", got)
	}
	wantOut := map[string]string{
		"vpcId":    `{"$ref":"pulumi.json#/Any"}`,
		"password": `{"$ref":"pulumi.json#/Any","secret":true}`,
	}
	for name, want := range wantOut {
		got, _ := json.Marshal(r.Properties[name])
		if string(got) != want {
			t.Errorf("output %s: got %s, want %s", name, got, want)
		}
	}
	if _, ok := pkg.Types["netmod:index/ModuleSettings:ModuleSettings"]; !ok {
		t.Errorf("no object type for settings among %v", pkg.Types)
	}
}

// TestTypedModuleCall: a Construct request of the typed component reads
// as the module call it stands for, inputs converted to the variables'
// types (secrets marked, unknowns unknown); its outputs encode back.
func TestTypedModuleCall(t *testing.T) {
	s, cwd := moduleServer(t)
	ctx := context.Background()
	if _, err := s.Parameterize(ctx, byArgs("./net", "netmod")); err != nil {
		t.Fatal(err)
	}
	in, err := propwire.Marshal(resource.PropertyMap{
		"cidrBlock":   resource.NewStringProperty("10.0.0.0/16"),
		"subnetCount": resource.NewComputedProperty(resource.Computed{Element: resource.NewStringProperty("")}),
		"dbPassword":  resource.MakeSecret(resource.NewStringProperty("hunter2")),
		"tags":        resource.NewObjectProperty(resource.PropertyMap{"env": resource.NewStringProperty("dev")}),
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.TypedModuleCall("terraform:index:Module", in); ok {
		t.Error("another type was taken for the typed component")
	}
	call, ok, err := s.TypedModuleCall("netmod:index:Module", in)
	if err != nil || !ok {
		t.Fatalf("got ok=%v err=%v", ok, err)
	}
	if call.Source != "./net" || call.Version != "" || call.Dir != filepath.Join(cwd, "net") {
		t.Errorf("source %q version %q dir %q", call.Source, call.Version, call.Dir)
	}
	v := call.Variables
	if !v["cidr_block"].RawEquals(cty.StringVal("10.0.0.0/16")) {
		t.Errorf("cidr_block: %#v", v["cidr_block"])
	}
	if v["subnet_count"].IsKnown() || v["subnet_count"].Type() != cty.Number {
		t.Errorf("subnet_count: %#v, want an unknown number", v["subnet_count"])
	}
	if !v["db_password"].IsMarked() {
		t.Errorf("db_password not marked sensitive: %#v", v["db_password"])
	}
	if !v["tags"].RawEquals(cty.MapVal(map[string]cty.Value{"env": cty.StringVal("dev")})) {
		t.Errorf("tags: %#v", v["tags"])
	}
	if !v["settings"].IsNull() {
		t.Errorf("settings: %#v, want null", v["settings"])
	}

	bad, _ := propwire.Marshal(resource.PropertyMap{"subnetCount": resource.NewStringProperty("many")})
	if _, _, err := s.TypedModuleCall("netmod:index:Module", bad); err == nil || !strings.Contains(err.Error(), "subnetCount") {
		t.Errorf("bad input: got %v, want an error naming subnetCount", err)
	}

	out, err := call.Outputs(map[string]cty.Value{"vpc_id": cty.StringVal("vpc-1"), "password": cty.StringVal("hunter2")})
	if err != nil {
		t.Fatal(err)
	}
	pm, err := propwire.Unmarshal(out)
	if err != nil {
		t.Fatal(err)
	}
	if pm["vpcId"].StringValue() != "vpc-1" || !pm["password"].IsSecret() {
		t.Errorf("outputs: %v", pm)
	}
	if _, err := call.Outputs(map[string]cty.Value{"nosuch": cty.True}); err == nil {
		t.Error("an output the module lacks: no error")
	}
}

// TestTypedConstructInputs: Construct of the typed component reads its
// inputs as the module's variables, so an input of the wrong type is the
// user's error naming the property, before the engine is contacted.
func TestTypedConstructInputs(t *testing.T) {
	s, _ := moduleServer(t)
	ctx := context.Background()
	if _, err := s.Parameterize(ctx, byArgs("./net", "netmod")); err != nil {
		t.Fatal(err)
	}
	in, _ := propwire.Marshal(resource.PropertyMap{"cidrBlock": resource.NewObjectProperty(resource.PropertyMap{"a": resource.NewNumberProperty(1)}), "dbPassword": resource.NewStringProperty("x")})
	_, err := s.Construct(ctx, &pulumirpc.ConstructRequest{Type: "netmod:index:Module", Inputs: in})
	if err == nil || !strings.Contains(err.Error(), "Invalid module inputs") || !strings.Contains(err.Error(), "cidrBlock") {
		t.Errorf("got %v", err)
	}
}
