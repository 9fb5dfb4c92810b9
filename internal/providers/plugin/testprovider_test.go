package plugin

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/testproviders/cairntest"
)

// serveEnv makes the test binary serve the protocol 6 test provider
// instead of running tests, so the tests launch themselves as a plugin:
// a real process over real gRPC, with no binary to build.
// serveV5Env does the same for the protocol 5 server of that provider.
const (
	serveEnv   = "CAIRN_PLUGIN_TEST_SERVE_V6"
	serveV5Env = "CAIRN_PLUGIN_TEST_SERVE_V5"
)

func TestMain(m *testing.M) {
	if os.Getenv(serveEnv) != "" {
		if err := tf6server.Serve(cairntest.Address, newTestServer); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	if os.Getenv(serveV5Env) != "" {
		if err := cairntest.ServeV5(); err != nil {
			fmt.Fprintln(os.Stderr, err)
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

// launchSelfV5 starts the test binary as the protocol 5 test provider.
func launchSelfV5(tb testing.TB) *Client {
	tb.Helper()
	tb.Setenv(serveV5Env, "1")
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
	// The framework's server lists (protocol 6.10); tf6server finds that
	// out by type assertion, so the wrapper must keep it.
	return schemaWatch{cairntest.NewServer().(tfprotov6.ProviderServerWithListResource)}
}

// The environment of the served test provider: schemaLogEnv names a file
// that gets a line for every GetProviderSchema call, so tests can count
// them across processes; schemaNeededEnv makes the provider say the call
// is not optional.
const (
	schemaLogEnv    = "CAIRN_PLUGIN_TEST_SCHEMA_LOG"
	schemaNeededEnv = "CAIRN_PLUGIN_TEST_SCHEMA_NEEDED"
)

type schemaWatch struct {
	tfprotov6.ProviderServerWithListResource
}

func (w schemaWatch) GetProviderSchema(ctx context.Context, req *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	if p := os.Getenv(schemaLogEnv); p != "" {
		f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintln(f, "GetProviderSchema")
			f.Close()
		}
	}
	resp, err := w.ProviderServerWithListResource.GetProviderSchema(ctx, req)
	if err == nil && resp.ServerCapabilities != nil && os.Getenv(schemaNeededEnv) != "" {
		resp.ServerCapabilities.GetProviderSchemaOptional = false
	}
	return resp, err
}

// thingConfig is a cairntest_thing configuration of type ty: the given
// attributes, every other one null.
func thingConfig(ty cty.Type, set map[string]cty.Value) cty.Value {
	vals := map[string]cty.Value{}
	for n, at := range ty.AttributeTypes() {
		vals[n] = cty.NullVal(at)
	}
	for n, v := range set {
		vals[n] = v
	}
	return cty.ObjectVal(vals)
}

// cairntestConfig is cairntest's provider configuration with nothing set
// (its one argument, api_token, null).
var cairntestConfig = cty.ObjectVal(map[string]cty.Value{"api_token": cty.NullVal(cty.String)})
