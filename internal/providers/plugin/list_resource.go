package plugin

import (
	"context"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// List resources (protocol 6.10 and 5.10): ValidateListResourceConfig and
// ListResource, whose answer is a server stream of events that tfproto6
// decodes as the engine ranges over them.

var _ tfprotov6.ProviderServerWithListResource = (*server)(nil)

// ValidateListResourceConfig sends a list block's configuration, and its
// include_resource and limit arguments when the engine has them.
func (s *server) ValidateListResourceConfig(ctx context.Context, req *tfprotov6.ValidateListResourceConfigRequest) (*tfprotov6.ValidateListResourceConfigResponse, error) {
	resp, err := s.conn.call(ctx, "ValidateListResourceConfig", func(m message) {
		m.setStr("type_name", req.TypeName)
		putValue(m, "config", req.Config)
		putValue(m, "include_resource_object", req.IncludeResourceObject)
		putValue(m, "limit", req.Limit)
	})
	if err != nil {
		return nil, err
	}
	return &tfprotov6.ValidateListResourceConfigResponse{Diagnostics: diagnostics(resp, "diagnostics")}, nil
}

// ListResource returns the listing; the stream opens when the caller
// first ranges over it and its events are received only as the caller
// takes them, so a caller that stops early (a limit reached, an
// interrupt) cancels the call instead of draining the listing. A stream
// that fails to open or fails part way ends with a result holding the
// error (the call is also recorded, so the Client names the plugin).
func (s *server) ListResource(ctx context.Context, req *tfprotov6.ListResourceRequest) (*tfprotov6.ListResourceServerStream, error) {
	results := func(yield func(tfprotov6.ListResourceResult) bool) {
		next, cancel, err := s.conn.stream(ctx, "ListResource", func(m message) {
			m.setStr("type_name", req.TypeName)
			putValue(m, "config", req.Config)
			if req.IncludeResource {
				m.set("include_resource_object", protoreflect.ValueOfBool(true))
			}
			m.setInt("limit", req.Limit)
		})
		if err != nil {
			yield(listFailure(err))
			return
		}
		defer cancel()
		for {
			ev, ok, err := next()
			if err != nil {
				yield(listFailure(err))
				return
			}
			if !ok {
				return
			}
			r := tfprotov6.ListResourceResult{
				DisplayName: ev.str("display_name"),
				Identity:    identityData(ev, "identity"),
				Resource:    value(ev, "resource_object"),
				Diagnostics: diagnostics(ev, "diagnostic"),
			}
			if !yield(r) {
				return
			}
		}
	}
	return &tfprotov6.ListResourceServerStream{Results: results}, nil
}

// listFailure is the last result of a listing whose stream failed.
func listFailure(err error) tfprotov6.ListResourceResult {
	return tfprotov6.ListResourceResult{Diagnostics: []*tfprotov6.Diagnostic{{
		Severity: tfprotov6.DiagnosticSeverityError,
		Summary:  "Listing failed",
		Detail:   "The listing stream ended with an error: " + status.Convert(err).Message(),
	}}}
}

// GenerateResourceConfig asks the plugin for the configuration that
// would produce a state (protocol 6.10's answer to -generate-config-out).
func (s *server) GenerateResourceConfig(ctx context.Context, req *tfprotov6.GenerateResourceConfigRequest) (*tfprotov6.GenerateResourceConfigResponse, error) {
	resp, err := s.conn.call(ctx, "GenerateResourceConfig", func(m message) {
		m.setStr("type_name", req.TypeName)
		putValue(m, "state", req.State)
	})
	if err != nil {
		return nil, err
	}
	return &tfprotov6.GenerateResourceConfigResponse{
		Config:      value(resp, "config"),
		Diagnostics: diagnostics(resp, "diagnostics"),
	}, nil
}

// listSchemas reads GetProviderSchema's list_resource_schemas (protocol
// 6.10 and 5.10; absent before).
func listSchemas(x message, out *tfprotov6.GetProviderSchemaResponse) error {
	if len(x.msgMap("list_resource_schemas")) > 0 {
		out.ListResourceSchemas = map[string]*tfprotov6.Schema{}
		if err := schemaMap(x, "list_resource_schemas", "list resource", out.ListResourceSchemas); err != nil {
			return err
		}
	}
	return nil
}
