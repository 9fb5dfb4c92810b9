package server

import (
	"context"
	"errors"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/pulumi/propval"
)

// Check validates a resource's inputs: their shape against the schema,
// the schema's required and read-only rules, then the provider's own
// validation (ValidateResourceConfig). Every failure names its property
// path. The inputs returned are the checked ones, normalised to the
// schema's types ("22" for a number becomes 22).
func (s *Server) Check(ctx context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	if m, ok := s.moduleResource(req.GetType(), req.GetUrn()); ok {
		return m.Check(ctx, req)
	}
	o, err := s.resourceOp(ctx, req.GetUrn(), req.GetType())
	if err != nil {
		return nil, err
	}
	config, failures := checkValue(o.schema.Block, req.GetNews())
	if len(failures) > 0 {
		return &pulumirpc.CheckResponse{Inputs: req.GetNews(), Failures: failures}, nil
	}
	ds := lifecycle.ValidateConfig(ctx, o.t, config)
	s.warn(ctx, o.urn, ds)
	if f := checkFailures(ds); len(f) > 0 {
		return &pulumirpc.CheckResponse{Inputs: req.GetNews(), Failures: f}, nil
	}
	checked, err := encode(o.schema.Block, config)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.CheckResponse{Inputs: checked}, nil
}

// checkValue converts inputs to a configuration value of block and
// applies the schema's rules; a value that breaks them comes back with
// failures at their property paths.
func checkValue(block *configschema.Block, in *structpb.Struct) (cty.Value, []*pulumirpc.CheckFailure) {
	config, err := inputs(block, in)
	if err != nil {
		return cty.NilVal, []*pulumirpc.CheckFailure{conversionFailure(err)}
	}
	var out []*pulumirpc.CheckFailure
	for _, p := range conform(block, config, nil) {
		out = append(out, &pulumirpc.CheckFailure{Property: propertyPath(p.path), Reason: p.msg})
	}
	return config, out
}

// checkFailures turns the errors among ds into check failures at their
// property paths.
func checkFailures(ds diags.Diagnostics) []*pulumirpc.CheckFailure {
	var out []*pulumirpc.CheckFailure
	for _, d := range ds {
		if d.Severity == diags.Error {
			out = append(out, &pulumirpc.CheckFailure{Property: propertyPath(d.Path), Reason: describe(d)})
		}
	}
	return out
}

// conversionFailure is the failure of a value that does not convert.
func conversionFailure(err error) *pulumirpc.CheckFailure {
	var pe *propval.PathError
	if errors.As(err, &pe) {
		return &pulumirpc.CheckFailure{Property: pe.Path.String(), Reason: pe.Msg}
	}
	return &pulumirpc.CheckFailure{Reason: err.Error()}
}
