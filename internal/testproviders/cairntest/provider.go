package cairntest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"crypto/sha256"
	"encoding/hex"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	pschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov5"
	"github.com/hashicorp/terraform-plugin-go/tfprotov5/tf5server"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
)

// Address is the provider's source address.
const Address = "registry.terraform.io/cairn/cairntest"

// Serve serves the provider on the process's standard streams as a
// Terraform plugin over protocol 6; it returns when the client is done
// with it.
func Serve() error {
	return tf6server.Serve(Address, NewServer)
}

// NewServer returns the provider as a protocol 6 server.
func NewServer() tfprotov6.ProviderServer {
	return generatingServer{providerserver.NewProtocol6(&testProvider{})().(tfprotov6.ProviderServerWithListResource)}
}

// ServeV5 is Serve over protocol 5: the same provider as a plugin built
// on the framework for Terraform's older protocol offers it (identities,
// list resources, functions and write-only attributes are in 5.x too),
// except for what protocol 5 cannot carry (nested attributes: the
// thing's rules).
func ServeV5() error {
	s, err := NewServerV5()
	if err != nil {
		return err
	}
	return tf5server.Serve(Address, func() tfprotov5.ProviderServer { return s })
}

// NewServerV5 returns the provider as a protocol 5 server.
func NewServerV5() (tfprotov5.ProviderServer, error) {
	return providerserver.NewProtocol5WithError(&testProvider{protocol5: true})()
}

// testProvider is the provider; protocol5 leaves out of its schemas what
// protocol 5 cannot carry.
type testProvider struct{ protocol5 bool }

func (testProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "cairntest"
}

// Schema has one optional argument, api_token, which an ephemeral value
// may set: Configure records its SHA-256 in the marker directory (file
// api-token), so a test sees the value arrived without it being kept.
func (testProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = pschema.Schema{Attributes: map[string]pschema.Attribute{
		"api_token": pschema.StringAttribute{Optional: true, Sensitive: true},
	}}
}

// Configure echoes the Terraform version it was told as a warning, so
// tests can see what the client sent, and records api_token's digest.
func (testProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	resp.Diagnostics.AddWarning("terraform_version", req.TerraformVersion)
	var tok types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("api_token"), &tok)...)
	if dir := os.Getenv(MarkerDirEnv); dir != "" && !tok.IsNull() && !tok.IsUnknown() {
		sum := sha256.Sum256([]byte(tok.ValueString()))
		_ = os.WriteFile(filepath.Join(dir, "api-token"), []byte(hex.EncodeToString(sum[:])+"\n"), 0o644)
	}
}

func (p testProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return thing{protocol5: p.protocol5} }, func() resource.Resource { return secret{} },
		func() resource.Resource { return item{} }}
}

// ListResources lists cairntest_thing (see list.go) and cairntest_item
// (see item.go).
func (testProvider) ListResources(context.Context) []func() list.ListResource {
	return []func() list.ListResource{func() list.ListResource { return thingList{} }, func() list.ListResource { return itemList{} }}
}

func (testProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

// EphemeralResources implements provider.ProviderWithEphemeralResources.
func (testProvider) EphemeralResources(context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{func() ephemeral.EphemeralResource { return token{} }}
}

// privateKey and privateValue are what Create leaves in private state and
// Read insists on, so a client that drops private state fails.
const (
	privateKey   = "created"
	privateValue = `{"by":"create"}`
)

// check reports a Read whose private state is not what Create left.
func checkPrivate(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	created, ds := req.Private.GetKey(ctx, privateKey)
	resp.Diagnostics.Append(ds...)
	if string(created) != privateValue {
		resp.Diagnostics.AddError("Private state lost", fmt.Sprintf("Read got %q.", created))
	}
}

// MarkerDirEnv names a directory where Create, before it hangs or gets
// stuck, writes a file named for the fault ("hang", "stuck") holding the
// plugin's process id: a test waits for it instead of guessing how long
// the run takes to get there, and can signal that process alone.
const MarkerDirEnv = "CAIRNTEST_MARKER_DIR"

func started(fault string) {
	if dir := os.Getenv(MarkerDirEnv); dir != "" {
		_ = os.WriteFile(filepath.Join(dir, fault), []byte(strconv.Itoa(os.Getpid())), 0o644)
	}
}

// exit ends the process the way a crashing provider does: at once, with
// no answer to the call in flight.
func exit() { os.Exit(3) }

// generatingServer is the framework's server declaring the
// GenerateResourceConfig capability, which terraform-plugin-framework
// v1.19 implements (writing a state as configuration, as Terraform 1.14
// does) but leaves out of the capabilities it sends: without it a client
// never calls the RPC, and tests of the client's side could not see it.
type generatingServer struct {
	tfprotov6.ProviderServerWithListResource
}

func (s generatingServer) GetMetadata(ctx context.Context, req *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	resp, err := s.ProviderServerWithListResource.GetMetadata(ctx, req)
	if resp != nil && resp.ServerCapabilities != nil {
		resp.ServerCapabilities.GenerateResourceConfig = true
	}
	return resp, err
}

func (s generatingServer) GetProviderSchema(ctx context.Context, req *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	resp, err := s.ProviderServerWithListResource.GetProviderSchema(ctx, req)
	if resp != nil && resp.ServerCapabilities != nil {
		resp.ServerCapabilities.GenerateResourceConfig = true
	}
	return resp, err
}
