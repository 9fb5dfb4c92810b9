package plugin

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Resource identity (protocol 6.9 and 5.9): the schemas, their upgrade,
// and the identity fields that ride on ReadResource, PlanResourceChange,
// ApplyResourceChange and ImportResourceState (operations.go writes and
// reads them through putIdentity and identityData).

// GetResourceIdentitySchemas asks for every resource type's identity. A
// plugin older than protocol 6.9 or 5.9 does not know the RPC: it has no
// identities, which is an empty answer, not a failure, so that tfproto6
// sends and expects none.
func (s *server) GetResourceIdentitySchemas(ctx context.Context, _ *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	resp, err := s.conn.call(ctx, "GetResourceIdentitySchemas", nil)
	if err != nil {
		if unimplemented(err) {
			return &tfprotov6.GetResourceIdentitySchemasResponse{}, nil
		}
		return nil, err
	}
	out := &tfprotov6.GetResourceIdentitySchemasResponse{
		IdentitySchemas: map[string]*tfprotov6.ResourceIdentitySchema{},
		Diagnostics:     diagnostics(resp, "diagnostics"),
	}
	for name, m := range resp.msgMap("identity_schemas") {
		is, err := identitySchema(m)
		if err != nil {
			return nil, fmt.Errorf("identity schema of resource type %s: %w", name, err)
		}
		out.IdentitySchemas[name] = is
	}
	return out, nil
}

func identitySchema(x message) (*tfprotov6.ResourceIdentitySchema, error) {
	out := &tfprotov6.ResourceIdentitySchema{Version: x.int("version")}
	for _, a := range x.list("identity_attributes") {
		t, err := tftypes.ParseJSONType(a.bytes("type")) //nolint:staticcheck // the wire form is JSON
		if err != nil {
			return nil, fmt.Errorf("attribute %q: type %q: %w", a.str("name"), a.bytes("type"), err)
		}
		out.IdentityAttributes = append(out.IdentityAttributes, &tfprotov6.ResourceIdentitySchemaAttribute{
			Name:              a.str("name"),
			Type:              t,
			RequiredForImport: a.boolean("required_for_import"),
			OptionalForImport: a.boolean("optional_for_import"),
			Description:       a.str("description"),
		})
	}
	return out, nil
}

// UpgradeResourceIdentity sends a stored identity, as JSON, for the
// plugin to bring up to its current identity schema.
func (s *server) UpgradeResourceIdentity(ctx context.Context, req *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	resp, err := s.conn.call(ctx, "UpgradeResourceIdentity", func(m message) {
		m.setStr("type_name", req.TypeName)
		m.setInt("version", req.Version)
		putRawState(m, "raw_identity", req.RawIdentity)
	})
	if err != nil {
		return nil, err
	}
	return &tfprotov6.UpgradeResourceIdentityResponse{
		UpgradedIdentity: identityData(resp, "upgraded_identity"),
		Diagnostics:      diagnostics(resp, "diagnostics"),
	}, nil
}

// putIdentity fills a ResourceIdentityData field; nil leaves it unset,
// which the plugin reads as "no identity known".
func putIdentity(x message, name string, id *tfprotov6.ResourceIdentityData) {
	if id == nil || id.IdentityData == nil {
		return
	}
	m := x.mutable(name)
	if !m.valid() {
		return
	}
	putValue(m, "identity_data", id.IdentityData)
}

// identityData reads a ResourceIdentityData field; nil when the plugin
// sent none (or its protocol has no such field).
func identityData(x message, name string) *tfprotov6.ResourceIdentityData {
	m := x.msg(name)
	if !m.valid() {
		return nil
	}
	dv := value(m, "identity_data")
	if dv == nil {
		return nil
	}
	return &tfprotov6.ResourceIdentityData{IdentityData: dv}
}
