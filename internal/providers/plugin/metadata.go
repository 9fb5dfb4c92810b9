package plugin

import (
	"context"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// GetMetadata asks the plugin for what it offers by name and for its
// server capabilities (protocol 6.4 and 5.4), without the schemas: a
// cheap call where GetProviderSchema is an expensive one.
func (s *server) GetMetadata(ctx context.Context, _ *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	resp, err := s.conn.call(ctx, "GetMetadata", nil)
	if err != nil {
		return nil, err
	}
	out := &tfprotov6.GetMetadataResponse{
		ServerCapabilities: serverCapabilities(resp.msg("server_capabilities")),
		Diagnostics:        diagnostics(resp, "diagnostics"),
	}
	for _, r := range resp.list("resources") {
		out.Resources = append(out.Resources, tfprotov6.ResourceMetadata{TypeName: r.str("type_name")})
	}
	for _, d := range resp.list("data_sources") {
		out.DataSources = append(out.DataSources, tfprotov6.DataSourceMetadata{TypeName: d.str("type_name")})
	}
	for _, f := range resp.list("functions") {
		out.Functions = append(out.Functions, tfprotov6.FunctionMetadata{Name: f.str("name")})
	}
	return out, nil
}

// serverCapabilities reads a ServerCapabilities message; nil when absent.
func serverCapabilities(caps message) *tfprotov6.ServerCapabilities {
	if !caps.valid() {
		return nil
	}
	return &tfprotov6.ServerCapabilities{
		PlanDestroy:               caps.boolean("plan_destroy"),
		GetProviderSchemaOptional: caps.boolean("get_provider_schema_optional"),
		MoveResourceState:         caps.boolean("move_resource_state"),
		GenerateResourceConfig:    caps.boolean("generate_resource_config"),
	}
}
