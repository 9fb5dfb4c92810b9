package plugin

import (
	"context"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// server is a plugin process seen as a tfprotov6.ProviderServer, so that
// tfproto6 does all conversion to and from the engine's types. Each method
// writes a request message from tfprotov6's request, makes the call, and
// reads the answer back; protocol 5 is served by the same code because
// the fields it touches have the same names in both protocols (conn maps
// the RPC names). Client capabilities are left unset, except write-only
// attributes (see write_only.go): Cairn allows no deferrals, which is what
// unset means.
type server struct {
	conn *conn
	// terraformVersion is sent in ConfigureProvider when the engine gives
	// none: providers log it and some branch on it.
	terraformVersion string
	// store, when set, answers GetProviderSchema from disk when it holds
	// this binary's schema, and keeps what the plugin answers.
	store *schemaStore
	// asked is set once this process has been asked for its schema.
	asked atomic.Bool
}

var _ tfprotov6.ProviderServer = (*server)(nil)

// GetProviderSchema answers from the schema store when it can; otherwise
// it asks the plugin and stores a clean answer (one without errors:
// a provider that failed to build its schema may succeed next time).
func (s *server) GetProviderSchema(ctx context.Context, _ *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	var key string
	if s.store != nil {
		md, err := s.conn.method("GetProviderSchema")
		if err != nil {
			return nil, err
		}
		if k, err := s.store.key(s.conn.version); err == nil {
			key = k
			if x, ok := s.store.load(key, md.Output()); ok {
				if out, err := schemaResponse(x); err == nil {
					return out, nil
				}
			}
		}
	}
	resp, err := s.conn.call(ctx, "GetProviderSchema", nil)
	if err != nil {
		return nil, err
	}
	s.asked.Store(true)
	out, err := schemaResponse(resp)
	if err == nil && key != "" && !hasErrorDiagnostics(out.Diagnostics) {
		_ = s.store.save(key, resp)
	}
	return out, err
}

func hasErrorDiagnostics(ds []*tfprotov6.Diagnostic) bool {
	for _, d := range ds {
		if d != nil && d.Severity == tfprotov6.DiagnosticSeverityError {
			return true
		}
	}
	return false
}

func (s *server) ValidateProviderConfig(ctx context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	resp, err := s.conn.call(ctx, "ValidateProviderConfig", func(m message) { putValue(m, "config", req.Config) })
	if err != nil {
		return nil, err
	}
	// Only protocol 5 answers with a prepared configuration (SDKv2 fills
	// in defaults there); protocol 6 leaves it nil and tfproto6 keeps the
	// configuration as it was.
	return &tfprotov6.ValidateProviderConfigResponse{
		PreparedConfig: value(resp, "prepared_config"),
		Diagnostics:    diagnostics(resp, "diagnostics"),
	}, nil
}

func (s *server) ConfigureProvider(ctx context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	version := req.TerraformVersion
	if version == "" {
		version = s.terraformVersion
	}
	resp, err := s.conn.call(ctx, "ConfigureProvider", func(m message) {
		m.setStr("terraform_version", version)
		putValue(m, "config", req.Config)
	})
	if err != nil {
		return nil, err
	}
	return &tfprotov6.ConfigureProviderResponse{Diagnostics: diagnostics(resp, "diagnostics")}, nil
}

func (s *server) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	resp, err := s.conn.call(ctx, "ValidateResourceConfig", func(m message) {
		m.setStr("type_name", req.TypeName)
		putValue(m, "config", req.Config)
		putValidateCapabilities(m, req.ClientCapabilities)
	})
	if err != nil {
		return nil, err
	}
	return &tfprotov6.ValidateResourceConfigResponse{Diagnostics: diagnostics(resp, "diagnostics")}, nil
}

func (s *server) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	resp, err := s.conn.call(ctx, "ValidateDataResourceConfig", func(m message) {
		m.setStr("type_name", req.TypeName)
		putValue(m, "config", req.Config)
	})
	if err != nil {
		return nil, err
	}
	return &tfprotov6.ValidateDataResourceConfigResponse{Diagnostics: diagnostics(resp, "diagnostics")}, nil
}

func (s *server) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	resp, err := s.conn.call(ctx, "UpgradeResourceState", func(m message) {
		m.setStr("type_name", req.TypeName)
		m.setInt("version", req.Version)
		putRawState(m, "raw_state", req.RawState)
	})
	if err != nil {
		return nil, err
	}
	return &tfprotov6.UpgradeResourceStateResponse{
		UpgradedState: value(resp, "upgraded_state"),
		Diagnostics:   diagnostics(resp, "diagnostics"),
	}, nil
}

func (s *server) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	resp, err := s.conn.call(ctx, "ReadResource", func(m message) {
		m.setStr("type_name", req.TypeName)
		putValue(m, "current_state", req.CurrentState)
		m.setBytes("private", req.Private)
		putValue(m, "provider_meta", req.ProviderMeta)
		putIdentity(m, "current_identity", req.CurrentIdentity)
	})
	if err != nil {
		return nil, err
	}
	return &tfprotov6.ReadResourceResponse{
		NewState:    value(resp, "new_state"),
		Diagnostics: diagnostics(resp, "diagnostics"),
		Private:     resp.bytes("private"),
		Deferred:    deferred(resp, "deferred"),
		NewIdentity: identityData(resp, "new_identity"),
	}, nil
}

func (s *server) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	resp, err := s.conn.call(ctx, "PlanResourceChange", func(m message) {
		m.setStr("type_name", req.TypeName)
		putValue(m, "prior_state", req.PriorState)
		putValue(m, "proposed_new_state", req.ProposedNewState)
		putValue(m, "config", req.Config)
		m.setBytes("prior_private", req.PriorPrivate)
		putValue(m, "provider_meta", req.ProviderMeta)
		putIdentity(m, "prior_identity", req.PriorIdentity)
	})
	if err != nil {
		return nil, err
	}
	return &tfprotov6.PlanResourceChangeResponse{
		PlannedState:                value(resp, "planned_state"),
		RequiresReplace:             attributePaths(resp, "requires_replace"),
		PlannedPrivate:              resp.bytes("planned_private"),
		Diagnostics:                 diagnostics(resp, "diagnostics"),
		UnsafeToUseLegacyTypeSystem: resp.boolean("legacy_type_system"),
		Deferred:                    deferred(resp, "deferred"),
		PlannedIdentity:             identityData(resp, "planned_identity"),
	}, nil
}

func (s *server) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	resp, err := s.conn.call(ctx, "ApplyResourceChange", func(m message) {
		m.setStr("type_name", req.TypeName)
		putValue(m, "prior_state", req.PriorState)
		putValue(m, "planned_state", req.PlannedState)
		putValue(m, "config", req.Config)
		m.setBytes("planned_private", req.PlannedPrivate)
		putValue(m, "provider_meta", req.ProviderMeta)
		putIdentity(m, "planned_identity", req.PlannedIdentity)
	})
	if err != nil {
		return nil, err
	}
	return &tfprotov6.ApplyResourceChangeResponse{
		NewState:                    value(resp, "new_state"),
		Private:                     resp.bytes("private"),
		Diagnostics:                 diagnostics(resp, "diagnostics"),
		UnsafeToUseLegacyTypeSystem: resp.boolean("legacy_type_system"),
		NewIdentity:                 identityData(resp, "new_identity"),
	}, nil
}

func (s *server) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	resp, err := s.conn.call(ctx, "ImportResourceState", func(m message) {
		m.setStr("type_name", req.TypeName)
		m.setStr("id", req.ID)
		putIdentity(m, "identity", req.Identity)
	})
	if err != nil {
		return nil, err
	}
	out := &tfprotov6.ImportResourceStateResponse{
		Diagnostics: diagnostics(resp, "diagnostics"),
		Deferred:    deferred(resp, "deferred"),
	}
	for _, ir := range resp.list("imported_resources") {
		out.ImportedResources = append(out.ImportedResources, &tfprotov6.ImportedResource{
			TypeName: ir.str("type_name"),
			State:    value(ir, "state"),
			Private:  ir.bytes("private"),
			Identity: identityData(ir, "identity"),
		})
	}
	return out, nil
}

func (s *server) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	resp, err := s.conn.call(ctx, "ReadDataSource", func(m message) {
		m.setStr("type_name", req.TypeName)
		putValue(m, "config", req.Config)
		putValue(m, "provider_meta", req.ProviderMeta)
	})
	if err != nil {
		return nil, err
	}
	return &tfprotov6.ReadDataSourceResponse{
		State:       value(resp, "state"),
		Diagnostics: diagnostics(resp, "diagnostics"),
		Deferred:    deferred(resp, "deferred"),
	}, nil
}

func (s *server) StopProvider(ctx context.Context, _ *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	resp, err := s.conn.call(ctx, "StopProvider", nil)
	if err != nil {
		return nil, err
	}
	return &tfprotov6.StopProviderResponse{Error: resp.str("Error")}, nil
}
