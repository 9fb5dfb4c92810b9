package server

import (
	"context"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/states"
)

// Read reads the remote object: a refresh of the stored one (ReadResource)
// or, when Pulumi has no outputs for it (pulumi import, a resource read
// by ID), an import by ID (ImportResourceState, then ReadResource). An
// object that no longer exists comes back with an empty ID. The inputs
// returned are the old inputs on refresh, and on import what a program
// would set to manage the object as it is.
func (s *Server) Read(ctx context.Context, req *pulumirpc.ReadRequest) (*pulumirpc.ReadResponse, error) {
	if m, ok := s.moduleResource(req.GetType(), req.GetUrn()); ok {
		return m.Read(ctx, req)
	}
	o, err := s.resourceOp(ctx, req.GetUrn(), req.GetType())
	if err != nil {
		return nil, err
	}
	ctx, cancel := s.opContext(ctx, req.GetTimeout())
	defer cancel()
	src, err := storedSrc(o.schema.Block, req.GetProperties())
	if err != nil {
		return nil, failure("Invalid stored state", err.Error())
	}
	var current *states.Object
	if src != nil {
		current, err = s.stored(ctx, o, src, true)
	} else {
		current, err = s.importByID(ctx, o, req.GetId())
	}
	if err != nil || current == nil {
		return &pulumirpc.ReadResponse{}, err
	}
	return s.readResponse(o, req, current)
}

// importByID reads the object an ID names (ImportResourceState, then
// ReadResource), nil when there is none.
func (s *Server) importByID(ctx context.Context, o *op, id string) (*states.Object, error) {
	imported, ds := lifecycle.Import(ctx, o.t, id)
	if err := s.diagsError(ctx, o.urn, ds); err != nil || imported == nil {
		return nil, err
	}
	refreshed, ds := lifecycle.Refresh(ctx, o.t, imported)
	return refreshed, s.diagsError(ctx, o.urn, ds)
}

func (s *Server) readResponse(o *op, req *pulumirpc.ReadRequest, obj *states.Object) (*pulumirpc.ReadResponse, error) {
	block := o.schema.Block
	oldInputs := cty.NilVal
	if len(req.GetInputs().GetFields()) > 0 {
		if v, err := inputs(block, req.GetInputs()); err == nil {
			oldInputs = v
		}
	}
	props, err := outputs(block, obj.Value, oldInputs, meta{SchemaVersion: o.schema.Version, Private: obj.Private})
	if err != nil {
		return nil, err
	}
	id, ok := resourceID(obj.Value)
	if !ok {
		id = req.GetId()
	}
	ins := req.GetInputs()
	if len(ins.GetFields()) == 0 {
		if ins, err = importInputs(block, obj.Value); err != nil {
			return nil, err
		}
	}
	return &pulumirpc.ReadResponse{Id: id, Properties: props, Inputs: ins}, nil
}

// importInputs are the inputs of an imported object: its settable
// attributes, so that Pulumi's check of the import (a diff of these
// inputs against the object) plans no change.
func importInputs(block *configschema.Block, v cty.Value) (*structpb.Struct, error) {
	return encode(block, settable(block, v))
}
