package tfproto6

import (
	"context"

	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

var _ providers.StateMover = (*Provider)(nil)

// MoveResourceState implements providers.StateMover. The source object
// goes as stored (raw JSON); the answer is decoded with the target type's
// current schema.
func (p *Provider) MoveResourceState(ctx context.Context, req providers.MoveResourceStateRequest) (resp providers.MoveResourceStateResponse) {
	const method = "MoveResourceState"
	ty, ds := p.resourceType(ctx, req.TargetTypeName)
	if resp.Diagnostics = ds; ds.HasErrors() {
		return resp
	}
	var c codec
	preq := &tfprotov6.MoveResourceStateRequest{
		SourceProviderAddress: req.SourceProviderAddress,
		SourceTypeName:        req.SourceTypeName,
		SourceSchemaVersion:   req.SourceSchemaVersion,
		SourceState:           &tfprotov6.RawState{JSON: req.SourceStateJSON},
		SourcePrivate:         req.SourcePrivate,
		TargetTypeName:        req.TargetTypeName,
	}
	presp, err := invoke(&c, func() (*tfprotov6.MoveResourceStateResponse, error) {
		return p.server.MoveResourceState(ctx, preq)
	})
	if err != nil {
		resp.Diagnostics = callFailed(method, err)
		return resp
	}
	resp.Diagnostics = convertDiagnostics(presp.Diagnostics)
	if resp.Diagnostics.HasErrors() {
		return resp
	}
	resp.TargetState = c.decode("target state", presp.TargetState, ty)
	resp.TargetPrivate = presp.TargetPrivate
	if c.Err != nil {
		resp.Diagnostics = resp.Diagnostics.Append(callFailed(method, c.Err))
	}
	return resp
}
