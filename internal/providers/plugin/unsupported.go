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

func (s *server) ValidateEphemeralResourceConfig(context.Context, *tfprotov6.ValidateEphemeralResourceConfigRequest) (*tfprotov6.ValidateEphemeralResourceConfigResponse, error) {
	return nil, errUnsupported
}

func (s *server) OpenEphemeralResource(context.Context, *tfprotov6.OpenEphemeralResourceRequest) (*tfprotov6.OpenEphemeralResourceResponse, error) {
	return nil, errUnsupported
}

func (s *server) RenewEphemeralResource(context.Context, *tfprotov6.RenewEphemeralResourceRequest) (*tfprotov6.RenewEphemeralResourceResponse, error) {
	return nil, errUnsupported
}

func (s *server) CloseEphemeralResource(context.Context, *tfprotov6.CloseEphemeralResourceRequest) (*tfprotov6.CloseEphemeralResourceResponse, error) {
	return nil, errUnsupported
}
