package server

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	pbempty "google.golang.org/protobuf/types/known/emptypb"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/modulerun"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/pulumi/schema"
	"github.com/cairn-iac/cairn/internal/pulumi/tokens"
)

// Info names the package a Server serves; it is known before the
// provider loads.
type Info struct {
	// Name is the Pulumi package name and the prefix of the provider's
	// type names ("awscc").
	Name    string
	Version string
	// Schemas, when set, keeps the package schema across launches:
	// GetSchema answers from it without waiting for the provider to
	// load, and keeps the schema it builds. The caller keys it by
	// everything the schema is built from.
	Schemas SchemaStore
	// Parameterize, when set, makes the server a parameterized plugin's:
	// Parameterize turns it into the package the parameters name (see
	// parameterize.go), and the provider loads only once something needs
	// it, since the parameters replace it.
	Parameterize Parameterizer
	// Modules, when set, serves Terraform modules as component resources
	// (the package's index:Module, Construct) from where these options
	// say; nil serves none.
	Modules *modulerun.Options
}

// SchemaStore keeps a package schema (JSON) between plugin launches.
// Load's ok is false when it holds none; Store may fail silently, costing
// the next launch the build.
type SchemaStore interface {
	Load() (schema []byte, ok bool)
	Store(schema []byte)
}

// Provider is what a Server serves: a Cairn provider and how Pulumi names
// it.
type Provider struct {
	// Addr names the provider in contract errors.
	Addr addrs.Provider
	// Factory starts the one provider instance the server uses (Pulumi
	// starts one plugin process per provider configuration).
	Factory providers.Factory
	// Package describes the package in its Pulumi schema; its Name,
	// Version and Schema are filled in by the server.
	Package schema.Input
	// ConfigReplaces are the provider configuration attributes whose
	// change leaves the new configuration unable to manage the old
	// resources (awscc's region): DiffConfig then asks for replacement.
	ConfigReplaces []string
	// DeleteBeforeReplace says whether replacing an object must delete
	// the old one first, because the new one would collide with it (a
	// name the user set that stays the same). Nil means never: Pulumi's
	// default is to create the replacement first.
	DeleteBeforeReplace func(typeName string, prior, planned cty.Value) bool
}

// Loader returns the provider to serve. A Server calls it once, in the
// background, as soon as it is made.
type Loader func() (*Provider, error)

// Server is a pulumirpc.ResourceProviderServer over a Cairn provider. It
// is safe for concurrent use: Pulumi calls resource operations in
// parallel.
type Server struct {
	pulumirpc.UnimplementedResourceProviderServer

	host Logger

	// mu guards info, loader, started and param: Parameterize replaces
	// the package until the provider starts loading.
	mu      sync.Mutex
	info    Info
	started bool
	param   *parameterized

	// loader loads the provider once, in the background: at once when
	// the server starts, or, when a kept package schema answers GetSchema,
	// once that answer is sent (sent) or at the first call that needs the
	// provider: loading 1,489 types on both cores while 22 MB go out
	// would more than double the answer's time.
	loader   Loader
	loadOnce sync.Once
	loaded   chan struct{}
	p        *Provider
	// lib owns the provider's schema and the lifetime of its instance,
	// as it does for the engine: the instance is stopped when the server
	// is cancelled and closed with the server.
	lib    *providers.Library
	inst   providers.Interface
	schema providers.GetProviderSchemaResponse
	// resources and functions map Pulumi tokens to type names.
	resources, functions map[string]string
	loadErr              error

	// stop is cancelled by Cancel: every operation's context derives
	// from it.
	stop   context.Context
	cancel context.CancelFunc

	schemaOnce sync.Once
	schemaJSON []byte
	schemaErr  error
	// modules answers for what a module component's Construct
	// registered; nil unless info.Modules is set.
	modules *moduleHost

	// storedSchema reads info.Schemas once.
	storedSchema func() ([]byte, bool)
}

var _ pulumirpc.ResourceProviderServer = (*Server)(nil)

// New returns a server and starts loading the provider. host receives the
// provider's warnings for the Pulumi engine to show; nil drops them.
func New(info Info, load Loader, host Logger) *Server {
	s := &Server{info: info, host: host, loader: load, loaded: make(chan struct{})}
	if s.host == nil {
		s.host = discard{}
	}
	if info.Modules != nil {
		s.modules = newModuleHost(*info.Modules)
	}
	s.stop, s.cancel = context.WithCancel(context.Background())
	s.storedSchema = sync.OnceValues(func() ([]byte, bool) {
		if info.Schemas == nil {
			return nil, false
		}
		return info.Schemas.Load()
	})
	if _, ok := s.storedSchema(); !ok && info.Parameterize == nil {
		s.startLoad()
	}
	return s
}

// sent is told that the answer to a call has been sent (Serve's stats
// handler): after GetSchema's, the engine's next calls need the
// provider.
func (s *Server) sent(fullMethod string) {
	if fullMethod == pulumirpc.ResourceProvider_GetSchema_FullMethodName {
		s.startLoad()
	}
}

// startLoad starts loading the provider unless it has started.
func (s *Server) startLoad() {
	s.loadOnce.Do(func() {
		s.mu.Lock()
		load := s.loader
		s.started = true
		s.mu.Unlock()
		go s.load(load)
	})
}

func (s *Server) load(load Loader) {
	defer close(s.loaded)
	p, err := load()
	if err != nil {
		s.loadErr = err
		return
	}
	s.lib = providers.NewLibrary(providers.Registry{p.Addr: p.Factory})
	resp, ds := s.lib.Schema(s.stop, p.Addr)
	if ds.HasErrors() {
		s.loadErr = fmt.Errorf("provider %s schema: %w", s.info.Name, ds.Err())
		return
	}
	// The one instance Pulumi's process serves: the one the schema was
	// read from, stopped when the server is cancelled.
	inst, ds := s.lib.Start(s.stop, p.Addr)
	if ds.HasErrors() {
		s.loadErr = fmt.Errorf("starting provider %s: %w", s.info.Name, ds.Err())
		return
	}
	sch := *resp
	if sch.Provider.Block == nil {
		// A provider with no configuration (the built-in terraform
		// provider) takes an empty one.
		sch.Provider.Block = &configschema.Block{}
	}
	s.resources, s.functions = map[string]string{}, map[string]string{}
	for name := range sch.ResourceTypes {
		if tok, err := tokens.Resource(s.info.Name, name); err == nil {
			s.resources[tok.String()] = name
		}
	}
	for name := range sch.DataSources {
		if tok, err := tokens.Function(s.info.Name, name); err == nil {
			s.functions[tok.String()] = name
		}
	}
	s.p, s.inst, s.schema = p, inst, sch
}

// ready waits for the provider to load and returns the error of loading
// it, as a gRPC status.
func (s *Server) ready(ctx context.Context) error {
	s.startLoad()
	select {
	case <-s.loaded:
	case <-ctx.Done():
		return ctx.Err()
	}
	if s.loadErr != nil {
		return failure("Failed to load the provider", s.loadErr.Error())
	}
	return nil
}

// GetPluginInfo answers without waiting for the provider to load.
func (s *Server) GetPluginInfo(context.Context, *pbempty.Empty) (*pulumirpc.PluginInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &pulumirpc.PluginInfo{Version: s.info.Version}, nil
}

// Handshake says what the server accepts: secrets and resource
// references arrive as such, so they can be carried into outputs.
func (s *Server) Handshake(context.Context, *pulumirpc.ProviderHandshakeRequest) (*pulumirpc.ProviderHandshakeResponse, error) {
	return &pulumirpc.ProviderHandshakeResponse{AcceptSecrets: true, AcceptResources: true}, nil
}

// GetSchema returns the package schema: the one info.Schemas kept, at
// once, else built once the provider has loaded (and then kept).
func (s *Server) GetSchema(ctx context.Context, req *pulumirpc.GetSchemaRequest) (*pulumirpc.GetSchemaResponse, error) {
	if req.GetVersion() > 0 {
		return nil, failure("Unsupported schema version", fmt.Sprintf("The provider serves schema version 0, not %d.", req.GetVersion()))
	}
	if err := s.checkSubpackage(req); err != nil {
		return nil, err
	}
	if m := s.modulePackage(); m != nil {
		return s.moduleSchemaResponse(m)
	}
	if stored, ok := s.storedSchema(); ok {
		// The engine's next calls need the provider.
		return &pulumirpc.GetSchemaResponse{Schema: string(stored)}, nil
	}
	if err := s.ready(ctx); err != nil {
		return nil, err
	}
	s.schemaOnce.Do(func() {
		in := s.p.Package
		in.Name, in.Version, in.Schema = s.info.Name, s.info.Version, s.schema
		pkg, err := schema.Build(in)
		if err != nil {
			s.schemaErr = err
			return
		}
		pkg.Parameterization = s.parameterization()
		if s.schemaJSON, s.schemaErr = json.Marshal(pkg); s.schemaErr == nil && s.info.Schemas != nil {
			s.info.Schemas.Store(s.schemaJSON)
		}
	})
	if s.schemaErr != nil {
		return nil, failure("Failed to build the package schema", s.schemaErr.Error())
	}
	return &pulumirpc.GetSchemaResponse{Schema: string(s.schemaJSON)}, nil
}

// Cancel stops the provider's operations in flight and every later one:
// Pulumi cancels when the user interrupts. The library stops the
// instance (StopProvider) when the server's context ends.
func (s *Server) Cancel(context.Context, *pbempty.Empty) (*pbempty.Empty, error) {
	s.cancel()
	return &pbempty.Empty{}, nil
}

// Close ends the provider instance.
func (s *Server) Close() error {
	s.cancel()
	// A provider never needed is never loaded.
	s.loadOnce.Do(func() {
		s.loadErr = context.Canceled
		close(s.loaded)
	})
	<-s.loaded
	if s.lib != nil {
		return s.lib.Close()
	}
	return nil
}
