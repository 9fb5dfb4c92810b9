package server

import (
	"context"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/cairn-iac/cairn/internal/lifecycle"
)

// Delete deletes the stored object, first asking the provider to plan
// the delete when it declared it wants to (PlanDestroy).
func (s *Server) Delete(ctx context.Context, req *pulumirpc.DeleteRequest) (*emptypb.Empty, error) {
	if m, ok := s.moduleResource(req.GetType(), req.GetUrn()); ok {
		return m.Delete(ctx, req)
	}
	o, err := s.resourceOp(ctx, req.GetUrn(), req.GetType())
	if err != nil {
		return nil, err
	}
	ctx, cancel := s.opContext(ctx, req.GetTimeout())
	defer cancel()
	priorV, private, err := s.storedValue(ctx, o, req.GetProperties())
	if err != nil || priorV.IsNull() {
		return &emptypb.Empty{}, err
	}
	if s.schema.PlanDestroy {
		p, ds := lifecycle.PlanDestroy(ctx, o.t, priorV, private)
		if err := s.diagsError(ctx, o.urn, ds); err != nil {
			return nil, err
		}
		private = p
	}
	if err := s.diagsError(ctx, o.urn, lifecycle.Delete(ctx, o.t, priorV, private)); err != nil {
		return nil, err
	}
	return &emptypb.Empty{}, nil
}
