package plugin

import (
	"context"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
)

var _ providers.StateMover = (*Client)(nil)

// MoveResourceState maps the RPC of protocol 6.5 and 5.5; the messages
// have the same fields in both protocols.
func (s *server) MoveResourceState(ctx context.Context, req *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	resp, err := s.conn.call(ctx, "MoveResourceState", func(m message) {
		m.setStr("source_provider_address", req.SourceProviderAddress)
		m.setStr("source_type_name", req.SourceTypeName)
		m.setInt("source_schema_version", req.SourceSchemaVersion)
		putRawState(m, "source_state", req.SourceState)
		m.setBytes("source_private", req.SourcePrivate)
		m.setStr("target_type_name", req.TargetTypeName)
	})
	if err != nil {
		return nil, err
	}
	return &tfprotov6.MoveResourceStateResponse{
		TargetState:   value(resp, "target_state"),
		TargetPrivate: resp.bytes("target_private"),
		Diagnostics:   diagnostics(resp, "diagnostics"),
	}, nil
}

// MoveResourceState implements providers.StateMover: the plugin turns an
// object of another resource type into one of its own. A plugin that
// crashed or closed is named in the diagnostics.
func (c *Client) MoveResourceState(ctx context.Context, req providers.MoveResourceStateRequest) providers.MoveResourceStateResponse {
	ctx, rec, end := c.begin(ctx)
	defer end()
	sm, ok := c.inner.(providers.StateMover)
	if !ok {
		return providers.MoveResourceStateResponse{Diagnostics: diags.Diagnostics{diags.Errorf("Plugin cannot move state", "%s", errUnsupported)}}
	}
	resp := sm.MoveResourceState(ctx, req)
	resp.Diagnostics = c.explain("MoveResourceState", rec.failure(), resp.Diagnostics)
	return resp
}
