package plugin

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
)

// serveEnv makes the test binary serve the protocol 6 test provider
// instead of running tests, so the tests launch themselves as a plugin:
// a real process over real gRPC, with no binary to build.
const serveEnv = "CAIRN_PLUGIN_TEST_SERVE_V6"

func TestMain(m *testing.M) {
	if os.Getenv(serveEnv) != "" {
		if err := tf6server.Serve("registry.terraform.io/cairn/cairntest", newTestServer); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// launchSelf starts the test binary as the protocol 6 test provider.
func launchSelf(tb testing.TB) *Client {
	tb.Helper()
	tb.Setenv(serveEnv, "1")
	exe, err := os.Executable()
	if err != nil {
		tb.Fatal(err)
	}
	c, err := Launch(context.Background(), exe, Options{Name: "registry.terraform.io/cairn/cairntest"})
	if err != nil {
		tb.Fatalf("Launch: %v", err)
	}
	tb.Cleanup(func() { _ = c.Close() })
	return c
}

func newTestServer() tfprotov6.ProviderServer {
	return schemaWatch{providerserver.NewProtocol6(&testProvider{})()}
}

// The environment of the served test provider: schemaLogEnv names a file
// that gets a line for every GetProviderSchema call, so tests can count
// them across processes; schemaNeededEnv makes the provider say the call
// is not optional.
const (
	schemaLogEnv    = "CAIRN_PLUGIN_TEST_SCHEMA_LOG"
	schemaNeededEnv = "CAIRN_PLUGIN_TEST_SCHEMA_NEEDED"
)

type schemaWatch struct{ tfprotov6.ProviderServer }

func (w schemaWatch) GetProviderSchema(ctx context.Context, req *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	if p := os.Getenv(schemaLogEnv); p != "" {
		f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintln(f, "GetProviderSchema")
			f.Close()
		}
	}
	resp, err := w.ProviderServer.GetProviderSchema(ctx, req)
	if err == nil && resp.ServerCapabilities != nil && os.Getenv(schemaNeededEnv) != "" {
		resp.ServerCapabilities.GetProviderSchemaOptional = false
	}
	return resp, err
}

// testProvider is cairntest: one resource, cairntest_thing, with what
// only protocol 6 can say (a nested attribute) and a way to crash.
type testProvider struct{}

func (testProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "cairntest"
}

func (testProvider) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}

// Configure echoes the Terraform version it was told as a warning, so
// tests can see what the client sent.
func (testProvider) Configure(_ context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	resp.Diagnostics.AddWarning("terraform_version", req.TerraformVersion)
}

func (testProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return thing{} }}
}

func (testProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

type thing struct{}

func (thing) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = "cairntest_thing"
}

func (thing) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = rschema.Schema{Attributes: map[string]rschema.Attribute{
		"id": rschema.StringAttribute{Computed: true,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
		"name": rschema.StringAttribute{Required: true,
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
		"crash": rschema.BoolAttribute{Optional: true, Description: "Create exits the process."},
		"rules": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{
			Attributes: map[string]rschema.Attribute{"port": rschema.Int64Attribute{Required: true}},
		}},
	}}
}

func (thing) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var crash types.Bool
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("crash"), &crash)...)
	if crash.ValueBool() {
		os.Exit(3)
	}
	var name types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("name"), &name)...)
	resp.State.Raw = req.Plan.Raw.Copy()
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), "thing-"+name.ValueString())...)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, "created", []byte(`{"by":"create"}`))...)
}

// Read insists on the private state Create left, so a client that drops
// it fails the test.
func (thing) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	created, ds := req.Private.GetKey(ctx, "created")
	resp.Diagnostics.Append(ds...)
	if string(created) != `{"by":"create"}` {
		resp.Diagnostics.AddError("Private state lost", fmt.Sprintf("Read got %q.", created))
	}
}

func (thing) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = req.Plan.Raw.Copy()
}

func (thing) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}
