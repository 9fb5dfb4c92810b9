package server

import (
	"context"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lifecycle"
)

// Create plans a new object from the inputs and, unless previewing,
// creates it. A preview returns the planned object, whose values the
// provider cannot know yet (an ARN, an id) are unknown.
func (s *Server) Create(ctx context.Context, req *pulumirpc.CreateRequest) (*pulumirpc.CreateResponse, error) {
	if m, ok := s.moduleResource(req.GetType(), req.GetUrn()); ok {
		return m.Create(ctx, req)
	}
	o, err := s.resourceOp(ctx, req.GetUrn(), req.GetType())
	if err != nil {
		return nil, err
	}
	id, props, err := s.apply(ctx, o, req.GetProperties(), nil, "", req.GetTimeout(), req.GetPreview())
	if err != nil {
		return nil, err
	}
	return &pulumirpc.CreateResponse{Id: id, Properties: props}, nil
}

// Update plans the change from the old outputs to the new inputs and,
// unless previewing, applies it.
func (s *Server) Update(ctx context.Context, req *pulumirpc.UpdateRequest) (*pulumirpc.UpdateResponse, error) {
	if m, ok := s.moduleResource(req.GetType(), req.GetUrn()); ok {
		return m.Update(ctx, req)
	}
	o, err := s.resourceOp(ctx, req.GetUrn(), req.GetType())
	if err != nil {
		return nil, err
	}
	_, props, err := s.apply(ctx, o, req.GetNews(), req.GetOlds(), req.GetId(), req.GetTimeout(), req.GetPreview())
	if err != nil {
		return nil, err
	}
	return &pulumirpc.UpdateResponse{Properties: props}, nil
}

// apply plans and applies one object: from olds (nil for a create) to
// news. It returns the new object's ID and outputs.
func (s *Server) apply(ctx context.Context, o *op, news, olds *structpb.Struct, id string, timeout float64, preview bool) (string, *structpb.Struct, error) {
	block := o.schema.Block
	config, err := inputs(block, news)
	if err != nil {
		return "", nil, failure("Invalid inputs", err.Error())
	}
	ctx, cancel := s.opContext(ctx, timeout)
	defer cancel()
	priorV, priorPrivate, err := s.storedValue(ctx, o, olds)
	if err != nil {
		return "", nil, err
	}
	planned, ds := lifecycle.Plan(ctx, o.t, priorV, priorPrivate, config)
	if err := s.diagsError(ctx, o.urn, ds); err != nil {
		return "", nil, err
	}
	if preview {
		props, err := outputs(block, planned.Value, config, meta{SchemaVersion: o.schema.Version, Private: planned.Private})
		if err != nil {
			return "", nil, err
		}
		pid, _ := resourceID(planned.Value)
		return pid, props, nil
	}
	applied, ds := lifecycle.Apply(ctx, o.t, planned)
	newID, ok := resourceID(applied.Value)
	if !ok {
		newID = id
	}
	var props *structpb.Struct
	if !applied.Value.IsNull() {
		if props, err = outputs(block, applied.Value, config, meta{SchemaVersion: o.schema.Version, Private: applied.Private}); err != nil {
			return "", nil, err
		}
	}
	if ds.HasErrors() {
		return "", nil, s.applyError(ctx, o, ds, newID, props, news)
	}
	s.warn(ctx, o.urn, ds)
	if newID == "" {
		return "", nil, failure("Provider returned no ID", "The "+o.t.Addr.ResourceInstance.String()+" object the provider returned has no id attribute.")
	}
	return newID, props, nil
}

// applyError reports a failed apply. When the provider still returned an
// object (created, or changed part way), the error carries it as
// ErrorResourceInitFailed, so Pulumi records the object rather than
// losing it, as Terraform keeps a tainted object.
func (s *Server) applyError(ctx context.Context, o *op, ds diags.Diagnostics, id string, props, news *structpb.Struct) error {
	err := s.diagsError(ctx, o.urn, ds)
	if props == nil || id == "" {
		return err
	}
	var reasons []string
	for _, d := range ds {
		if d.Severity == diags.Error {
			reasons = append(reasons, describe(d))
		}
	}
	st, derr := status.New(codes.Unknown, strings.Join(reasons, "\n\n")).WithDetails(&pulumirpc.ErrorResourceInitFailed{
		Id: id, Properties: props, Reasons: reasons, Inputs: news,
	})
	if derr != nil {
		return err
	}
	return st.Err()
}
