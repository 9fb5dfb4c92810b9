package server

import (
	"context"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/fieldname"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/pulumi/diff"
)

// Diff plans the change from the stored object (the old outputs) to the
// new inputs with the provider (PlanResourceChange, checked against the
// contract) and reports it as a detailed diff: which properties change,
// which of them force replacement (the provider's RequiresReplace), and
// whether the old object must go first.
func (s *Server) Diff(ctx context.Context, req *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	if m, ok := s.moduleResource(req.GetType(), req.GetUrn()); ok {
		return m.Diff(ctx, req)
	}
	o, err := s.resourceOp(ctx, req.GetUrn(), req.GetType())
	if err != nil {
		return nil, err
	}
	block := o.schema.Block
	config, err := inputs(block, req.GetNews())
	if err != nil {
		return nil, failure("Invalid inputs", err.Error())
	}
	ctx, cancel := s.opContext(ctx, 0)
	defer cancel()
	priorV, priorPrivate, err := s.storedValue(ctx, o, req.GetOlds())
	if err != nil {
		return nil, err
	}
	planned, ds := lifecycle.Plan(ctx, o.t, priorV, priorPrivate, config)
	if err := s.diagsError(ctx, o.urn, ds); err != nil {
		return nil, err
	}
	dbr := false
	if s.p.DeleteBeforeReplace != nil {
		dbr = s.p.DeleteBeforeReplace(o.t.Addr.ResourceInstance.Resource.Resource.Type, priorV, planned.Value)
	}
	resp, err := diff.Response(diff.Input{
		Schema: block, Prior: priorV, Planned: planned.Value,
		RequiresReplace: planned.RequiresReplace, DeleteBeforeReplace: dbr,
	})
	if err != nil {
		return nil, err
	}
	outputsOnly(block, resp)
	return resp, nil
}

// outputsOnly drops from the detailed diff the properties a program
// cannot set (computed-only attributes): Pulumi shows a detailed diff
// against the program's inputs, where such a property would read as
// deleted. They still count as changes.
func outputsOnly(block *configschema.Block, resp *pulumirpc.DiffResponse) {
	for path := range resp.DetailedDiff {
		top, err := resource.ParsePropertyPath(path)
		if err != nil || len(top) == 0 {
			continue
		}
		key, _ := top[0].(string)
		if a := block.Attributes[fieldname.Snake(key)]; a != nil && a.Computed && !a.Optional && !a.Required {
			delete(resp.DetailedDiff, path)
		}
	}
}
