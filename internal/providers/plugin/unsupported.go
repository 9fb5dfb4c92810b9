package plugin

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// errUnsupported answers the RPCs that are part of tfprotov6.ProviderServer
// but not of providers.Interface, so tfproto6 never calls them; should it
// start to, the call fails with this error instead of reaching the plugin
// half-mapped.
var errUnsupported = errors.New("the plugin client does not map this RPC")

func (s *server) GetResourceIdentitySchemas(context.Context, *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	return nil, errUnsupported
}

func (s *server) MoveResourceState(context.Context, *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	return nil, errUnsupported
}

func (s *server) UpgradeResourceIdentity(context.Context, *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	return nil, errUnsupported
}

func (s *server) GenerateResourceConfig(context.Context, *tfprotov6.GenerateResourceConfigRequest) (*tfprotov6.GenerateResourceConfigResponse, error) {
	return nil, errUnsupported
}
