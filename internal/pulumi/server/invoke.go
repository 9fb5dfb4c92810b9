package server

import (
	"context"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/pulumi/propval"
)

// Invoke reads a data source (a function such as
// awscc:logs/getLogGroup:getLogGroup): the arguments are checked as a
// data source's configuration, then ReadDataSource runs. Bad arguments
// are failures with their property paths, as in Check.
func (s *Server) Invoke(ctx context.Context, req *pulumirpc.InvokeRequest) (*pulumirpc.InvokeResponse, error) {
	if err := s.ready(ctx); err != nil {
		return nil, err
	}
	name, ok := s.functions[req.GetTok()]
	if !ok {
		return nil, failure("Unknown function", "The "+s.info.Name+" provider has no function "+req.GetTok()+".")
	}
	sch := s.schema.DataSources[name]
	t := s.target(name, "_", sch)
	t.Addr.ResourceInstance.Resource.Resource.Mode = addrs.DataResourceMode
	config, failures := checkValue(sch.Block, req.GetArgs())
	if len(failures) > 0 {
		return &pulumirpc.InvokeResponse{Failures: failures}, nil
	}
	ctx, cancel := s.opContext(ctx, 0)
	defer cancel()
	ds := lifecycle.ValidateConfig(ctx, t, config)
	if f := checkFailures(ds); len(f) > 0 {
		return &pulumirpc.InvokeResponse{Failures: f}, nil
	}
	v, ds := lifecycle.ReadData(ctx, t, config)
	if err := s.diagsError(ctx, "", ds); err != nil {
		return nil, err
	}
	ret, err := encode(sch.Block, propval.CarrySecrets(v, config))
	if err != nil {
		return nil, err
	}
	return &pulumirpc.InvokeResponse{Return: ret}, nil
}
