package plugin

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// Ephemeral resources (protocol 6.7 and 5.7): the schemas GetProviderSchema
// holds and the four RPCs, mapped field by field as the other operations
// are (see server).

// ephemeralSchemas reads GetProviderSchema's ephemeral_resource_schemas;
// a plugin whose protocol predates them has none.
func ephemeralSchemas(x message, out *tfprotov6.GetProviderSchemaResponse) error {
	out.EphemeralResourceSchemas = map[string]*tfprotov6.Schema{}
	return schemaMap(x, "ephemeral_resource_schemas", "ephemeral resource", out.EphemeralResourceSchemas)
}

func (s *server) ValidateEphemeralResourceConfig(ctx context.Context, req *tfprotov6.ValidateEphemeralResourceConfigRequest) (*tfprotov6.ValidateEphemeralResourceConfigResponse, error) {
	resp, err := s.conn.call(ctx, "ValidateEphemeralResourceConfig", func(m message) {
		m.setStr("type_name", req.TypeName)
		putValue(m, "config", req.Config)
	})
	if err != nil {
		return nil, err
	}
	return &tfprotov6.ValidateEphemeralResourceConfigResponse{Diagnostics: diagnostics(resp, "diagnostics")}, nil
}

// OpenEphemeralResource leaves the client capabilities unset: Cairn
// allows no deferral.
func (s *server) OpenEphemeralResource(ctx context.Context, req *tfprotov6.OpenEphemeralResourceRequest) (*tfprotov6.OpenEphemeralResourceResponse, error) {
	resp, err := s.conn.call(ctx, "OpenEphemeralResource", func(m message) {
		m.setStr("type_name", req.TypeName)
		putValue(m, "config", req.Config)
	})
	if err != nil {
		return nil, err
	}
	return &tfprotov6.OpenEphemeralResourceResponse{
		Result:      value(resp, "result"),
		Diagnostics: diagnostics(resp, "diagnostics"),
		Private:     resp.bytes("private"),
		RenewAt:     timestamp(resp.msg("renew_at")),
		Deferred:    deferred(resp, "deferred"),
	}, nil
}

func (s *server) RenewEphemeralResource(ctx context.Context, req *tfprotov6.RenewEphemeralResourceRequest) (*tfprotov6.RenewEphemeralResourceResponse, error) {
	resp, err := s.conn.call(ctx, "RenewEphemeralResource", func(m message) {
		m.setStr("type_name", req.TypeName)
		m.setBytes("private", req.Private)
	})
	if err != nil {
		return nil, err
	}
	return &tfprotov6.RenewEphemeralResourceResponse{
		Diagnostics: diagnostics(resp, "diagnostics"),
		Private:     resp.bytes("private"),
		RenewAt:     timestamp(resp.msg("renew_at")),
	}, nil
}

func (s *server) CloseEphemeralResource(ctx context.Context, req *tfprotov6.CloseEphemeralResourceRequest) (*tfprotov6.CloseEphemeralResourceResponse, error) {
	resp, err := s.conn.call(ctx, "CloseEphemeralResource", func(m message) {
		m.setStr("type_name", req.TypeName)
		m.setBytes("private", req.Private)
	})
	if err != nil {
		return nil, err
	}
	return &tfprotov6.CloseEphemeralResourceResponse{Diagnostics: diagnostics(resp, "diagnostics")}, nil
}

// timestamp reads a google.protobuf.Timestamp; the zero time when unset.
func timestamp(x message) time.Time {
	if !x.valid() {
		return time.Time{}
	}
	return time.Unix(x.int("seconds"), x.int("nanos")).UTC()
}
