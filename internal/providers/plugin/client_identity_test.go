package plugin

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/ccendpoint"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/testendpoint"
	"github.com/cairn-iac/cairn/internal/testprocess"
)

// buildAWSCC builds Cairn's served awscc once per test binary: a plugin
// that speaks protocol 6.10 (identities and list resources).
var buildAWSCC = testprocess.BuildOnce("github.com/cairn-iac/cairn/cmd/terraform-provider-awscc", "terraform-provider-awscc")

// launchAWSCC starts Cairn's awscc with only the log group type,
// configured for an endpoint that holds the log groups named.
func launchAWSCC(tb testing.TB, groups ...string) (*Client, *ccendpoint.Endpoint) {
	tb.Helper()
	if testing.Short() {
		tb.Skip("builds and launches Cairn's awscc")
	}
	return launchAWSCCBinary(tb, buildAWSCC(tb), groups...)
}

// launchAWSCCBinary is launchAWSCC for the awscc binary at bin.
func launchAWSCCBinary(tb testing.TB, bin string, groups ...string) (*Client, *ccendpoint.Endpoint) {
	tb.Helper()
	e, err := ccendpoint.Start(ccendpoint.Options{Addr: "127.0.0.1:0", DataDir: tb.TempDir(), Region: "eu-west-1"})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = e.Close() })
	for _, g := range groups {
		testendpoint.CreateLogGroup(tb, e.URL, g)
	}
	tb.Setenv("CAIRN_AWSCC_TYPES", "AWS::Logs::LogGroup")
	tb.Setenv("CAIRN_PLUGIN_CACHE", tb.TempDir())
	ctx := context.Background()
	c, err := Launch(ctx, bin, Options{Name: "registry.terraform.io/hashicorp/awscc"})
	if err != nil {
		tb.Fatalf("Launch: %v", err)
	}
	tb.Cleanup(func() { _ = c.Close() })
	ty := c.GetProviderSchema(ctx).Provider.Block.ImpliedType()
	cfg := nullsBut(ty, map[string]cty.Value{
		"region": cty.StringVal("eu-west-1"), "access_key": cty.StringVal("AKID"), "secret_key": cty.StringVal("SECRET"),
		"skip_metadata_api_check": cty.True,
		"endpoints": nullsBut(ty.AttributeType("endpoints"), map[string]cty.Value{
			"cloudcontrolapi": cty.StringVal(e.URL), "sts": cty.StringVal(e.URL),
		}),
	})
	noErrors(tb, "ConfigureProvider", c.ConfigureProvider(ctx, providers.ConfigureProviderRequest{Config: cfg}).Diagnostics)
	return c, e
}

// nullsBut is an object of type ty with the given attributes, every other
// one null.
func nullsBut(ty cty.Type, set map[string]cty.Value) cty.Value {
	vals := map[string]cty.Value{}
	for n, at := range ty.AttributeTypes() {
		vals[n] = cty.NullVal(at)
	}
	for n, v := range set {
		vals[n] = v
	}
	return cty.ObjectVal(vals)
}

func logGroupIdentity(name string) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"account_id": cty.StringVal("123456789012"), "log_group_name": cty.StringVal(name), "region": cty.StringVal("eu-west-1"),
	})
}

// TestIdentityOverThePlugin drives resource identity through the client
// against a real 6.10 plugin: the schemas, an import by identity, the
// identity a read is sent and returns, and an upgrade the provider
// refuses (a current identity needs none).
func TestIdentityOverThePlugin(t *testing.T) {
	for name, launch := range awsccPlugins {
		t.Run(name, func(t *testing.T) {
			c, _ := launch(t, "app")
			identityOverThePlugin(t, c)
		})
	}
}

// awsccPlugins are the 6.10 plugins the identity and list tests run
// against: Cairn's served awscc and HashiCorp's awscc v1.97 (skipped
// where its binary is not at hand, see /work/shared/tools/README.md).
var awsccPlugins = map[string]func(tb testing.TB, groups ...string) (*Client, *ccendpoint.Endpoint){
	"cairn": launchAWSCC,
	"hashicorp": func(tb testing.TB, groups ...string) (*Client, *ccendpoint.Endpoint) {
		return launchAWSCCBinary(tb, hashicorpAWSCC(tb), groups...)
	},
}

// hashicorpAWSCC decompresses HashiCorp's awscc plugin, or skips.
func hashicorpAWSCC(tb testing.TB) string {
	tb.Helper()
	if testing.Short() {
		tb.Skip("launches HashiCorp's awscc")
	}
	xz := os.Getenv("CAIRN_AWSCC_PLUGIN_XZ")
	if xz == "" {
		xz = "/work/shared/tools/terraform-provider-awscc_v1.97.0_linux_amd64.xz"
	}
	if _, err := os.Stat(xz); err != nil {
		tb.Skipf("HashiCorp's awscc plugin is not at %s: %v", xz, err)
	}
	bin := filepath.Join(tb.TempDir(), "terraform-provider-awscc")
	if out, err := exec.Command("sh", "-c", `xz -dc "$1" > "$2" && chmod +x "$2"`, "sh", xz, bin).CombinedOutput(); err != nil {
		tb.Skipf("cannot decompress %s: %v\n%s", xz, err, out)
	}
	return bin
}

func identityOverThePlugin(t *testing.T, c *Client) {
	ctx := context.Background()
	schemas := c.GetResourceIdentitySchemas(ctx)
	noErrors(t, "GetResourceIdentitySchemas", schemas.Diagnostics)
	is, ok := schemas.IdentityTypes["awscc_logs_log_group"]
	if !ok {
		t.Fatalf("no identity for awscc_logs_log_group in %v", schemas.IdentityTypes)
	}
	if want := logGroupIdentity("").Type(); !is.ImpliedType().Equals(want) {
		t.Errorf("identity type %#v, want %#v", is.ImpliedType(), want)
	}
	imp := c.ImportResourceState(ctx, providers.ImportResourceStateRequest{
		TypeName: "awscc_logs_log_group",
		Identity: nullsBut(is.ImpliedType(), map[string]cty.Value{"log_group_name": cty.StringVal("app")}),
	})
	noErrors(t, "ImportResourceState", imp.Diagnostics)
	if len(imp.ImportedResources) != 1 {
		t.Fatalf("imported %d objects, want 1", len(imp.ImportedResources))
	}
	// Cairn's awscc completes the identity at import; HashiCorp's returns
	// the one it was given and completes it at the read that follows.
	obj := imp.ImportedResources[0]
	if obj.Identity == cty.NilVal || !obj.Identity.GetAttr("log_group_name").RawEquals(cty.StringVal("app")) {
		t.Errorf("identity after import %#v", obj.Identity)
	}
	read := c.ReadResource(ctx, providers.ReadResourceRequest{TypeName: obj.TypeName, PriorState: obj.State, Private: obj.Private, CurrentIdentity: obj.Identity})
	noErrors(t, "ReadResource", read.Diagnostics)
	if !read.NewIdentity.RawEquals(logGroupIdentity("app")) {
		t.Errorf("identity after read %#v", read.NewIdentity)
	}
	if got := read.NewState.GetAttr("log_group_name"); !got.RawEquals(cty.StringVal("app")) {
		t.Errorf("read log_group_name %#v", got)
	}
	up := c.UpgradeResourceIdentity(ctx, providers.UpgradeResourceIdentityRequest{TypeName: "awscc_logs_log_group", Version: 0, RawJSON: []byte(`{"log_group_name":"app"}`)})
	if !up.Diagnostics.HasErrors() || up.Diagnostics[0].Summary != "Unexpected Identity Upgrade Request" {
		t.Errorf("UpgradeResourceIdentity of a current identity: %v", up.Diagnostics)
	}
}

// TestListOverThePlugin lists through the client's server stream: every
// object with its identity and resource object, a limit that stops the
// stream, and a caller that stops early.
func TestListOverThePlugin(t *testing.T) {
	for name, launch := range awsccPlugins {
		t.Run(name, func(t *testing.T) {
			c, _ := launch(t, "a", "b", "c")
			listOverThePlugin(t, c)
		})
	}
}

func listOverThePlugin(t *testing.T, c *Client) {
	ctx := context.Background()
	ls := c.GetListResourceSchemas(ctx)
	noErrors(t, "GetListResourceSchemas", ls.Diagnostics)
	s, ok := ls.ListResourceTypes["awscc_logs_log_group"]
	if !ok {
		t.Fatalf("no list resource awscc_logs_log_group in %v", ls.ListResourceTypes)
	}
	cfg := nullsBut(s.Block.ImpliedType(), nil)
	noErrors(t, "ValidateListResourceConfig", c.ValidateListResourceConfig(ctx, providers.ValidateListResourceConfigRequest{TypeName: "awscc_logs_log_group", Config: cfg}).Diagnostics)
	for _, tc := range []struct {
		name         string
		limit        int64
		include      bool
		stopAfter    int
		wantN        int
		wantObjectOf bool
	}{
		{name: "all", include: true, wantN: 3, wantObjectOf: true},
		{name: "identities only", wantN: 3},
		{name: "limit", limit: 2, wantN: 2},
		{name: "caller stops", stopAfter: 1, wantN: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := c.ListResource(ctx, providers.ListResourceRequest{TypeName: "awscc_logs_log_group", Config: cfg, IncludeResourceObject: tc.include, Limit: tc.limit})
			noErrors(t, "ListResource", resp.Diagnostics)
			var got []providers.ListResult
			for r := range resp.Results {
				noErrors(t, "result", r.Diagnostics)
				got = append(got, r)
				if len(got) == tc.stopAfter {
					break
				}
			}
			if len(got) != tc.wantN {
				t.Fatalf("%d results, want %d", len(got), tc.wantN)
			}
			for i, r := range got {
				name := string(rune('a' + i))
				if !r.Identity.RawEquals(logGroupIdentity(name)) {
					t.Errorf("result %d identity %#v", i, r.Identity)
				}
				if r.DisplayName == "" {
					t.Errorf("result %d has no display name", i)
				}
				if has := r.ResourceObject != cty.NilVal && !r.ResourceObject.IsNull(); has != tc.wantObjectOf {
					t.Errorf("result %d resource object present %v, want %v", i, has, tc.wantObjectOf)
				} else if has && !r.ResourceObject.GetAttr("log_group_name").RawEquals(cty.StringVal(name)) {
					t.Errorf("result %d object %#v", i, r.ResourceObject.GetAttr("log_group_name"))
				}
			}
		})
	}
	// The client still answers after streams ended early.
	noErrors(t, "ReadResource after listings", c.ValidateListResourceConfig(ctx, providers.ValidateListResourceConfigRequest{TypeName: "awscc_logs_log_group", Config: cfg}).Diagnostics)
}
