package plugin

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/cairn-iac/cairn/internal/providers/tfproto6"
)

// handshake is Terraform's: a provider binary refuses to serve without the
// magic cookie, which keeps it from being run by hand by mistake.
var handshake = goplugin.HandshakeConfig{
	MagicCookieKey:   "TF_PLUGIN_MAGIC_COOKIE",
	MagicCookieValue: "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
}

// DefaultTerraformVersion is the Terraform version the client reports to
// providers in ConfigureProvider: the version whose behaviour Cairn keeps.
const DefaultTerraformVersion = "1.5.7"

// Options configures Launch. The zero value is ready to use.
type Options struct {
	// Name is the provider's address (registry.terraform.io/hashicorp/random),
	// used in diagnostics; the binary's file name when empty.
	Name string
	// TerraformVersion is sent in ConfigureProvider when the engine's
	// request has none; DefaultTerraformVersion when empty.
	TerraformVersion string
	// SchemaCache, when set, is shared with other clients of the same
	// provider so the schema is asked for and converted once.
	SchemaCache *tfproto6.SchemaCache
	// SchemaDir, when set, is where schemas are kept across runs, keyed
	// by the SHA-256 of the binary: a binary whose schema is there is not
	// asked for it (unless it needs the call, see below).
	SchemaDir string
	// Logger receives go-plugin's and the provider's log lines; they are
	// discarded when nil.
	Logger hclog.Logger
	// Dir is the working directory of the provider's process; the
	// caller's when empty. Terraform changes into the -chdir directory
	// before it starts plugins, so relative paths in a configuration
	// (local_file's "./main.tf") name files there, not where the command
	// was run from.
	Dir string
}

// grpcProvider is the go-plugin plugin: on the client side it only hands
// back the connection, which conn drives with dynamic messages.
type grpcProvider struct {
	goplugin.NetRPCUnsupportedPlugin
}

func (grpcProvider) GRPCServer(*goplugin.GRPCBroker, *grpc.Server) error {
	return fmt.Errorf("the plugin client cannot serve a provider")
}

func (grpcProvider) GRPCClient(_ context.Context, _ *goplugin.GRPCBroker, cc *grpc.ClientConn) (interface{}, error) {
	return cc, nil
}

// Launch starts the provider binary at path, negotiates protocol 6 or 5
// (the binary chooses the highest it speaks) over gRPC with mutual TLS,
// and fetches its schema. The errors are for the user: the binary is
// missing or not a provider, the handshake failed, or the provider died
// before answering; the process is gone when Launch fails. ctx bounds the
// schema call, not the process, which lives until Close.
func Launch(ctx context.Context, path string, opts Options) (*Client, error) {
	services := map[int]protoreflect.ServiceDescriptor{}
	for _, v := range []int{5, 6} {
		sd, err := serviceDescriptor(v)
		if err != nil {
			return nil, err
		}
		services[v] = sd
	}
	c := newClient(path, opts)
	cc, err := c.start()
	if err != nil {
		c.kill()
		return nil, fmt.Errorf("starting provider %s (%s): %w", c.name, path, err)
	}
	c.version = c.pc.NegotiatedVersion()
	sd, ok := services[c.version]
	if !ok {
		c.kill()
		return nil, fmt.Errorf("provider %s (%s) negotiated plugin protocol %d; Cairn speaks 5 and 6", c.name, path, c.version)
	}
	srv := &server{conn: &conn{cc: cc, version: c.version, service: sd}, terraformVersion: c.terraformVersion}
	if opts.SchemaDir != "" {
		srv.store = &schemaStore{dir: opts.SchemaDir, binary: path}
	}
	var topts []tfproto6.Option
	if opts.SchemaCache != nil {
		topts = append(topts, tfproto6.WithSchemaCache(opts.SchemaCache))
	}
	c.srv = srv
	c.inner = tfproto6.New(srv, topts...)
	// The schema is fetched now, once per cache: every engine operation
	// needs it, and a provider that cannot answer it is better reported
	// here than at its first resource.
	sctx, rec := withRecord(ctx)
	resp := c.inner.GetProviderSchema(sctx)
	if err := rec.failure(); err != nil {
		c.kill()
		return nil, fmt.Errorf("provider %s (%s) failed to answer GetProviderSchema: %w", c.name, path, err)
	}
	// A provider that does not declare the call optional may rely on it
	// to set itself up (older SDKs did), so each of its processes is
	// asked once even when the schema came from a cache.
	if !srv.asked.Load() && !resp.GetProviderSchemaOptional {
		if _, err := srv.conn.call(ctx, "GetProviderSchema", nil); err != nil {
			c.kill()
			return nil, fmt.Errorf("provider %s (%s) failed to answer GetProviderSchema: %w", c.name, path, err)
		}
	}
	return c, nil
}

func newClient(path string, opts Options) *Client {
	c := &Client{name: opts.Name, path: path, terraformVersion: opts.TerraformVersion}
	if c.name == "" {
		c.name = filepath.Base(path)
	}
	if c.terraformVersion == "" {
		c.terraformVersion = DefaultTerraformVersion
	}
	logger := opts.Logger
	if logger == nil {
		logger = hclog.NewNullLogger()
	}
	c.cmd = exec.Command(path)
	c.cmd.Dir = opts.Dir
	c.pc = goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig: handshake,
		VersionedPlugins: map[int]goplugin.PluginSet{
			5: {"provider": grpcProvider{}},
			6: {"provider": grpcProvider{}},
		},
		Cmd:              c.cmd,
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		AutoMTLS:         true,
		Logger:           logger,
	})
	return c
}

// start runs the process and returns its gRPC connection.
func (c *Client) start() (*grpc.ClientConn, error) {
	rpc, err := c.pc.Client()
	if err != nil {
		return nil, err
	}
	raw, err := rpc.Dispense("provider")
	if err != nil {
		return nil, err
	}
	cc, ok := raw.(*grpc.ClientConn)
	if !ok {
		return nil, fmt.Errorf("go-plugin dispensed a %T, not a gRPC connection", raw)
	}
	return cc, nil
}
