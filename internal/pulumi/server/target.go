package server

import (
	"context"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/providers"
)

// op is one resource operation's context: its type, schema and the
// lifecycle target that calls the provider about it.
type op struct {
	urn    resource.URN
	schema providers.Schema
	t      *lifecycle.Target
}

// resourceOp resolves a request's resource type (the request's type, or
// the URN's) to the provider's type and builds the target. An unknown
// type is an error naming it.
func (s *Server) resourceOp(ctx context.Context, urn, typ string) (*op, error) {
	if err := s.ready(ctx); err != nil {
		return nil, err
	}
	u := resource.URN(urn)
	if typ == "" && u.IsValid() {
		typ = string(u.Type())
	}
	name, ok := s.resources[typ]
	if !ok {
		return nil, failure("Unknown resource type", "The "+s.info.Name+" provider has no resource type "+typ+".")
	}
	sch := s.schema.ResourceTypes[name]
	return &op{urn: u, schema: sch, t: s.target(name, u.Name(), sch)}, nil
}

func (s *Server) target(typeName, name string, sch providers.Schema) *lifecycle.Target {
	if name == "" {
		name = "_"
	}
	addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: typeName, Name: name}.
		Absolute(addrs.RootModuleInstance).Instance(addrs.NoKey)
	return &lifecycle.Target{
		Addr:     addrs.AbsResourceInstanceObject{ResourceInstance: addr},
		Provider: s.inst, ProviderAddr: s.p.Addr, Schema: sch.Block, SchemaVersion: sch.Version,
	}
}

// opContext is the context of one operation: cancelled by Cancel, and
// bounded by the request's timeout (seconds; zero means none).
func (s *Server) opContext(ctx context.Context, timeout float64) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(s.stop, cancel)
	if timeout > 0 {
		var cancelT context.CancelFunc
		ctx, cancelT = context.WithTimeout(ctx, time.Duration(timeout*float64(time.Second)))
		return ctx, func() { cancelT(); stop(); cancel() }
	}
	return ctx, func() { stop(); cancel() }
}
