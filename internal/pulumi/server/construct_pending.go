package server

import (
	"context"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Construct answers that components are not served yet, naming the
// typed module component when that is what was asked for. It stands in
// until module runs are wired in (issue 28's Construct, construct.go):
// at that merge this file goes, and Construct calls TypedModuleCall for
// the typed component.
func (s *Server) Construct(_ context.Context, req *pulumirpc.ConstructRequest) (*pulumirpc.ConstructResponse, error) {
	if _, ok, err := s.TypedModuleCall(req.GetType(), req.GetInputs()); ok && err != nil {
		return nil, err
	} else if ok {
		return nil, status.Errorf(codes.Unimplemented, "Construct of %s: running the module as a component is not implemented yet", req.GetType())
	}
	return nil, status.Errorf(codes.Unimplemented, "Construct of %s: the %s package has no component resources", req.GetType(), s.info.Name)
}
