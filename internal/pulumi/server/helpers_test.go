package server

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/builtin"
	"github.com/cairn-iac/cairn/internal/ccendpoint"
	"github.com/cairn-iac/cairn/internal/cfnregistry"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/awscc"
	"github.com/cairn-iac/cairn/internal/providers/tfproto6"
	"github.com/cairn-iac/cairn/internal/testproviders/cairntest"
)

// newServer returns a server over p, configured with config, and closes
// it when the test ends.
func newServer(t testing.TB, name string, p *Provider, config map[string]any) *Server {
	t.Helper()
	s := New(Info{Name: name, Version: "0.1.0"}, func() (*Provider, error) { return p, nil }, nil)
	t.Cleanup(func() { _ = s.Close() })
	if _, err := s.Configure(context.Background(), &pulumirpc.ConfigureRequest{Args: props(t, config), AcceptSecrets: true}); err != nil {
		t.Fatal(err)
	}
	return s
}

func terraformServer(t testing.TB) *Server {
	tp := builtin.NewTerraformProvider()
	return newServer(t, "terraform", &Provider{Addr: builtin.TerraformProviderAddr,
		Factory: func() (providers.Interface, error) { return tp, nil }}, nil)
}

func cairntestServer(t testing.TB) *Server {
	addr, err := addrs.ParseProviderSource(cairntest.Address)
	if err != nil {
		t.Fatal(err)
	}
	return newServer(t, "cairntest", &Provider{Addr: addr,
		Factory: func() (providers.Interface, error) { return tfproto6.New(cairntest.NewServer()), nil }}, nil)
}

// awsccServer serves awscc's log groups against a Cloud Control endpoint
// of the test's own.
func awsccServer(t testing.TB) *Server { return awsccServerLatency(t, 0) }

// awsccServerLatency is awsccServer with an endpoint that takes latency
// per create, update and delete.
func awsccServerLatency(t testing.TB, latency time.Duration) *Server {
	t.Helper()
	_, p := awsccAt(t, latency)
	return newServer(t, "awscc", p, map[string]any{"region": "us-east-1"})
}

// awsccAt starts a Cloud Control endpoint of the test's own, points the
// AWS environment at it, and returns its URL and awscc's log groups
// served over it.
func awsccAt(t testing.TB, latency time.Duration) (string, *Provider) {
	t.Helper()
	ep, err := ccendpoint.Start(ccendpoint.Options{Addr: "127.0.0.1:0", DataDir: t.TempDir(), Latency: latency})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ep.Close() })
	for k, v := range map[string]string{"AWS_ENDPOINT_URL": ep.URL, "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
		"AWS_EC2_METADATA_DISABLED": "true", "AWS_CONFIG_FILE": filepath.Join(t.TempDir(), "none"), "AWS_SHARED_CREDENTIALS_FILE": filepath.Join(t.TempDir(), "none")} {
		t.Setenv(k, v)
	}
	docs, err := cfnregistry.Builtin(func(n string) bool { return n == "AWS::Logs::LogGroup" })
	if err != nil {
		t.Fatal(err)
	}
	catalog, ds := cfnschema.LoadSources([]cfnschema.Source{{Name: docs[0].Name, Data: docs[0].Data}})
	p, err := awscc.NewFromCatalog(catalog, ds, "built-in")
	if err != nil {
		t.Fatal(err)
	}
	return ep.URL, &Provider{Addr: awscc.Addr, Factory: p.Factory(), ConfigReplaces: []string{"region"}}
}

func props(t testing.TB, m map[string]any) *structpb.Struct {
	t.Helper()
	st, err := marshal(resource.NewPropertyMapFromMap(m))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func read(t testing.TB, st *structpb.Struct) resource.PropertyMap {
	t.Helper()
	pm, err := unmarshal(st)
	if err != nil {
		t.Fatal(err)
	}
	return pm
}

const logGroup = "urn:pulumi:dev::p::awscc:logs/logGroup:LogGroup::lg"
