package tfplugins

import (
	goplugin "github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"google.golang.org/grpc"

	"github.com/cairn-iac/cairn/internal/cfnsources"
	"github.com/cairn-iac/cairn/internal/providers/awscc"
)

// MagicCookie is the environment variable Terraform and OpenTofu set
// when they launch a provider plugin; go-plugin exits the process when it
// is missing, so Serve checks first and explains instead.
const MagicCookie = "TF_PLUGIN_MAGIC_COOKIE"

// Config is what one awscc plugin process serves.
type Config struct {
	// Sources are the CloudFormation schemas (cfnsources.FromEnv).
	Sources cfnsources.Sources
	// Types limits the provider to some types (cfnsources.TypeFilter);
	// all when empty. Fewer types make each launch faster and smaller.
	Types string
	// Debug serves in go-plugin's debug mode: the process prints
	// TF_REATTACH_PROVIDERS for Terraform to attach to instead of being
	// launched by it.
	Debug bool
	// Getenv reads the process environment (the magic cookie).
	Getenv func(string) string
}

// Problem is an error for the person who ran the plugin: a one-line
// summary and a detail saying what to do.
type Problem struct {
	Summary, Detail string
}

func (p *Problem) Error() string { return p.Summary + ": " + p.Detail }

// ServeAWSCC serves awscc over cfg until Terraform is done with the
// process. The errors are *Problem: the process was not launched by
// Terraform, the schemas do not load, or the server failed.
//
// A launch reuses what an earlier launch over the same schema set built
// (the plugin cache, see package plugincache): the index of types, so
// that only the types Terraform uses are translated, and the encoded
// GetProviderSchema answer, replayed as it was sent.
func ServeAWSCC(cfg Config) error {
	if !cfg.Debug && cfg.Getenv(MagicCookie) == "" {
		return &Problem{"Not launched by Terraform",
			"cairn provider serve awscc is a Terraform plugin: Terraform or OpenTofu launches it. Point a dev_overrides or filesystem_mirror entry of the CLI configuration at the terraform-provider-awscc binary (see the README), or run it with -debug and give Terraform the TF_REATTACH_PROVIDERS it prints."}
	}
	cache := openLaunchCache(cfg)
	p, err := loadProvider(cfg, cache)
	if err != nil {
		return &Problem{"Failed to load the awscc provider", err.Error() + "."}
	}
	factory := func() tfprotov6.ProviderServer { return p.Server() }
	if cfg.Debug {
		if err := tf6server.Serve(awscc.Addr.String(), factory, tf6server.WithManagedDebug()); err != nil {
			return &Problem{"Provider server failed", err.Error() + "."}
		}
		return nil
	}
	serve(factory, &schemaReplay{cache: cache})
	return nil
}

// magicCookieValue is Terraform's for plugin protocol 6: a process
// launched without it is not a plugin, and go-plugin refuses to serve.
const magicCookieValue = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2"

// maxMessageSize is terraform-plugin-go's limit both ways: the schema of
// every type is large.
const maxMessageSize = 256 << 20

// serve runs go-plugin's server as tf6server.Serve does, with the gRPC
// server answering GetProviderSchema through replay. It returns when
// Terraform is done with the process.
func serve(factory func() tfprotov6.ProviderServer, replay *schemaReplay) {
	goplugin.Serve(&goplugin.ServeConfig{
		HandshakeConfig: goplugin.HandshakeConfig{ProtocolVersion: 6, MagicCookieKey: MagicCookie, MagicCookieValue: magicCookieValue},
		Plugins: goplugin.PluginSet{
			"provider": &tf6server.GRPCProviderPlugin{GRPCProvider: factory, Name: awscc.Addr.String()},
		},
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			opts = append(opts, grpc.MaxRecvMsgSize(maxMessageSize), grpc.MaxSendMsgSize(maxMessageSize),
				grpc.ChainUnaryInterceptor(replay.intercept), grpc.ForceServerCodecV2(newReplayCodec()))
			return grpc.NewServer(opts...)
		},
	})
}
