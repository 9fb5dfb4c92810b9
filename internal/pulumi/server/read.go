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
	o, err := s.resourceOp(ctx, req.GetUrn(), req.GetType())
	if err != nil {
		return nil, err
	}
	block := o.schema.Block
	priorV, m, err := prior(block, req.GetProperties())
	if err != nil {
		return nil, failure("Invalid stored state", err.Error())
	}
	ctx, cancel := s.opContext(ctx, req.GetTimeout())
	defer cancel()
	obj := &states.Object{Value: priorV, Private: m.Private}
	if priorV.IsNull() {
		imported, ds := lifecycle.Import(ctx, o.t, req.GetId())
		if err := s.diagsError(ctx, o.urn, ds); err != nil {
			return nil, err
		}
		if imported == nil {
			return &pulumirpc.ReadResponse{}, nil
		}
		obj = imported
	}
	refreshed, ds := lifecycle.Refresh(ctx, o.t, obj)
	if err := s.diagsError(ctx, o.urn, ds); err != nil {
		return nil, err
	}
	if refreshed == nil || refreshed.Value.IsNull() {
		return &pulumirpc.ReadResponse{}, nil
	}
	return s.readResponse(o, req, refreshed)
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
